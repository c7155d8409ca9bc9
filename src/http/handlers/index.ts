import type { UseCaseDeps } from '../../usecases/deps.js';
import type { Handlers } from '../pipeline/operations.js';
import { accountHandlers } from './accounts.js';
import { adminHandlers } from './admin.js';
import { apiKeyHandlers } from './apiKeys.js';
import { beneficiaryHandlers } from './beneficiaries.js';
import { healthHandlers } from './health.js';
import { payoutHandlers } from './payouts.js';
import { payrollHandlers } from './payroll.js';
import { webhookHandlers } from './webhooks.js';

/** The operations defined by more than one of the groups. */
type Repeated<Groups extends readonly object[], Seen = never> = Groups extends readonly [infer First, ...infer Rest extends readonly object[]]
  ? (keyof First & Seen) | Repeated<Rest, Seen | keyof First>
  : never;

/** `true` when each operation is in one group; else the names of those in two, which `true` is not. */
type OnceEach<Groups extends readonly object[]> = [Repeated<Groups>] extends [never] ? true : Repeated<Groups>;

type Merged<Groups extends readonly object[]> = (Groups[number] extends infer G ? (G extends object ? (merged: G) => void : never) : never) extends (
  merged: infer All,
) => void
  ? All
  : never;

/**
 * Every operation of the spec, grouped by its tag. A missing one fails to compile here, and so does
 * one defined in two groups (a spread would silently keep the later); `merge` checks the second
 * again at start-up.
 */
export function allHandlers(deps: UseCaseDeps): Handlers {
  const groups = [
    payrollHandlers(deps),
    payoutHandlers(deps),
    beneficiaryHandlers(deps),
    accountHandlers(deps),
    webhookHandlers(deps),
    apiKeyHandlers(deps),
    adminHandlers(deps),
    healthHandlers(deps),
  ] as const;
  const onceEach: OnceEach<typeof groups> = true;
  return merge(groups, onceEach);
}

function merge<Groups extends readonly object[]>(groups: Groups, _onceEach: true): Merged<Groups> {
  const merged: Record<string, unknown> = {};
  for (const group of groups) {
    for (const [operationId, handler] of Object.entries(group)) {
      if (operationId in merged) throw new Error(`operation ${operationId} has a handler in two groups`);
      merged[operationId] = handler;
    }
  }
  return merged as Merged<Groups>;
}
