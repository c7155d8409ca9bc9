import type { UseCaseDeps } from '../../usecases/deps.js';
import type { Handlers } from '../operations.js';
import { accountHandlers } from './accounts.js';
import { adminHandlers } from './admin.js';
import { beneficiaryHandlers } from './beneficiaries.js';
import { healthHandlers } from './health.js';
import { payoutHandlers } from './payouts.js';
import { payrollHandlers } from './payroll.js';
import { webhookHandlers } from './webhooks.js';

/** Every operation of the spec, grouped by its tag. A missing one fails to compile here. */
export function allHandlers(deps: UseCaseDeps): Handlers {
  return {
    ...payrollHandlers(deps),
    ...payoutHandlers(deps),
    ...beneficiaryHandlers(deps),
    ...accountHandlers(deps),
    ...webhookHandlers(deps),
    ...adminHandlers(deps),
    ...healthHandlers(deps),
  };
}
