/**
 * Contract-following requests for the fuzzer: values drawn from the spec's schemas, with real ids
 * of the test world where a parameter or property names one, and pools of real resources (fee
 * estimates, requests, payouts, cursors) that grow from the answers as the run goes on, so that
 * later cases reach deeper into the use cases.
 */
import fc from 'fast-check';
import { composeIBAN } from 'ibantools';
import { ids } from '../../fixtures/world.js';
import { type JsonSchema, type Operation, type RawResponse, type Spec, fillPath } from '../spec.js';

/** userA2: customer A's approver (four-eyes approval), who approves what userA created. */
export type User = 'userA' | 'userB' | 'admin' | 'userA2';
export const userIds: Record<User, string> = { userA: ids.userA, userB: ids.userB, admin: ids.admin, userA2: ids.userA2Approver };

// ---------------------------------------------------------------------------------------------
// Pools of real resources, filled from the world and from the answers of earlier cases.

interface PayrollEstimate {
  user: User;
  body: Record<string, unknown>;
  feeHash: string;
}
interface PayoutEstimate {
  user: User;
  accountId: string;
  beneficiaryId: string;
  amount: string;
  currency: string;
  feeHash: string;
}
interface PayoutRef {
  user: User;
  accountId: string;
  payoutId: string;
}
interface CursorRef {
  cursor: string;
  status: string | undefined;
  admin: boolean;
}

const pools = {
  requestIds: [ids.requestACompleted, ids.requestBPending] as string[],
  payrollEstimates: [] as PayrollEstimate[],
  payoutEstimates: [] as PayoutEstimate[],
  payouts: [] as PayoutRef[],
  cursors: [] as CursorRef[],
};
type PoolName = keyof typeof pools;
/**
 * Ids for path parameters no hint knows (operations added later): the ids answered by the
 * operations on the collection the parameter belongs to (POST or GET /things → /things/{thingId}).
 */
const idPools = new Map<string, string[]>();
function collectionOf(spec: Spec, op: Operation): string[] {
  return spec.operations.flatMap((other) =>
    [...other.path.matchAll(/\{([^}]+)\}/g)].filter((m) => other.path.slice(0, m.index - 1) === op.path).map((m) => m[1]!),
  );
}
const POOL_CAP = 60;
export function remember<K extends PoolName>(pool: K, item: (typeof pools)[K][number]): void {
  const list = pools[pool] as unknown[];
  list.push(item);
  if (list.length > POOL_CAP) list.splice(pool === 'requestIds' ? 2 : 0, 1);
}

/** A value drawn from a pool when the case is built (pools grow while the run goes on). */
class PoolRef {
  constructor(
    readonly pool: PoolName | `param:${string}`,
    readonly n: number,
  ) {}
  toString(): string {
    return `PoolRef(${this.pool}#${this.n})`;
  }
}
export function pick<T>(list: readonly T[], n: number): T | undefined {
  return list.length === 0 ? undefined : list[n % list.length];
}

// ---------------------------------------------------------------------------------------------
// Valid values from the schemas, with real ids where a parameter or property names one.

const beneficiaries = [ids.beneficiaryA1, ids.beneficiaryA2, ids.beneficiaryA3, ids.beneficiaryA4, ids.beneficiaryA5];
const currencies = ['USD', 'AED', 'USDC', 'JPY', 'EUR'];
const amountArb = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 1, max: 2_000_00 }).map((cents) => (cents / 100).toFixed(2)) },
  { weight: 2, arbitrary: fc.integer({ min: 1, max: 5000 }).map(String) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 99_999_999 }).map((n) => `0.${String(n).padStart(8, '0')}`) },
  { weight: 1, arbitrary: fc.constantFrom('0', '0.00', '0.001', '1000000000', '12.345') },
);
const rateArb = fc.oneof(
  { weight: 8, arbitrary: fc.integer({ min: 3_5000, max: 3_8000 }).map((n) => (n / 10_000).toFixed(4)) },
  { weight: 1, arbitrary: fc.constantFrom('0', '0.0', '151.37', '1', '99999999999999999999.99999999') },
);
const uuidOr = (known: fc.Arbitrary<unknown>, weight = 8) => fc.oneof({ weight, arbitrary: known }, { weight: 1, arbitrary: fc.uuid() });

const HINTS: Record<string, (schema: JsonSchema) => fc.Arbitrary<unknown>> = {
  beneficiaryId: () =>
    fc.oneof(
      { weight: 12, arbitrary: fc.constantFrom(...beneficiaries) },
      { weight: 1, arbitrary: fc.constantFrom(ids.beneficiaryAInactive, ids.beneficiaryB1) },
      { weight: 1, arbitrary: fc.uuid() },
    ),
  sourceAccountCurrencyId: () =>
    uuidOr(
      fc.oneof(
        { weight: 6, arbitrary: fc.constant(ids.acAUsd) },
        { weight: 2, arbitrary: fc.constant(ids.acAUsdc) },
        { weight: 1, arbitrary: fc.constant(ids.acBUsd) },
      ),
      12,
    ),
  payrollAccountCurrencyId: () =>
    uuidOr(
      fc.oneof({ weight: 6, arbitrary: fc.constant(ids.acPartnerAed) }, { weight: 1, arbitrary: fc.constantFrom(ids.acPartnerJpy, ids.acAAed, ids.acAUsd) }),
      12,
    ),
  accountId: () =>
    uuidOr(
      fc.oneof(
        { weight: 6, arbitrary: fc.constant(ids.accountAUsd) },
        { weight: 1, arbitrary: fc.constantFrom(ids.accountAUsdc, ids.accountBUsd, ids.accountPartnerBank, ids.accountAAed) },
      ),
    ),
  accountCurrencyId: () =>
    uuidOr(
      fc.oneof(
        { weight: 6, arbitrary: fc.constant(ids.acAUsd) },
        { weight: 1, arbitrary: fc.constantFrom(ids.acAUsdc, ids.acAAed, ids.acBUsd, ids.acPartnerAed, ids.acPartnerJpy) },
      ),
    ),
  requestId: () => uuidOr(fc.nat().map((n) => new PoolRef('requestIds', n))),
  payoutId: () =>
    uuidOr(
      fc.nat().map((n) => new PoolRef('payouts', n)),
      3,
    ),
  cursor: () => fc.oneof({ weight: 3, arbitrary: fc.nat().map((n) => new PoolRef('cursors', n)) }, { weight: 1, arbitrary: fc.string({ maxLength: 30 }) }),
  amount: () => amountArb,
  exchangeRate: () => rateArb,
  rate: () => rateArb,
  currency: () =>
    fc.oneof(
      { weight: 8, arbitrary: fc.constant('USD') },
      { weight: 2, arbitrary: fc.constantFrom(...currencies) },
      { weight: 1, arbitrary: fc.stringMatching(/^[A-Z]{3,5}$/) },
    ),
  fromCurrencyCode: () => fc.oneof({ weight: 6, arbitrary: fc.constantFrom('USD', 'USDC') }, { weight: 1, arbitrary: fc.constantFrom(...currencies, 'XYZ') }),
  toCurrencyCode: () => fc.oneof({ weight: 6, arbitrary: fc.constantFrom('AED', 'JPY') }, { weight: 1, arbitrary: fc.constantFrom(...currencies, 'XYZ') }),
  expiresAt: () => fc.integer({ min: -120, max: 26 * 60 }).map((minutes) => new Date(Date.parse('2026-11-23T10:00:00.000Z') + minutes * 60_000).toISOString()),
  feeHash: (schema) =>
    fc.oneof({ weight: 1, arbitrary: schemaArb(schema, '') }, { weight: 1, arbitrary: fc.nat().map((n) => new PoolRef('payrollEstimates', n)) }),
  amountSplitDetails: (schema) =>
    fc.uniqueArray(schemaArb(schema.items ?? {}, ''), {
      minLength: Math.max(schema.minItems ?? 0, 1),
      maxLength: 4,
      selector: (entry) => (entry as { beneficiaryId?: unknown }).beneficiaryId,
    }),
  customerId: () => uuidOr(fc.constantFrom(ids.customerA, ids.customerB)),
  reason: (schema) => textArb(schema.minLength ?? 1, Math.min(schema.maxLength ?? 60, 60)),
  // Beneficiaries: mostly valid bank details, so that creates and updates get through (and collide).
  iban: () =>
    fc.oneof(
      { weight: 6, arbitrary: fc.stringMatching(/^[0-9]{19}$/).map((bban) => composeIBAN({ countryCode: 'AE', bban }) ?? bban) },
      { weight: 1, arbitrary: fc.constantFrom('AE070331234567890123456', 'AE070331234567890123457', 'GB82 WEST 1234 5698 7654 32', 'ZZ00') },
    ),
  accountNumber: () => fc.stringMatching(/^[0-9]{6,16}$/),
  swiftBic: () => fc.constantFrom('EBILAEAD', 'CHASUS33', 'NBADAEAAXXX', 'EBIL1EAD'),
  nationality: () => fc.oneof({ weight: 8, arbitrary: fc.constantFrom('AE', 'IN', 'US', 'PH') }, { weight: 1, arbitrary: fc.constantFrom('ZZ', 'UK') }),
  email: () => fc.constantFrom('pay@example.com', 'priya.nair@example.com', 'not-an-email'),
  reference: (schema) => textArb(schema.minLength ?? 1, Math.min(schema.maxLength ?? 60, 60)),
};
/**
 * Path parameters taken from the pool of the resources the run created, even where a hint knows
 * world ids: deactivating the world's beneficiaries would leave the payroll cases nobody to pay.
 */
const POOLED_PATH_PARAMS = new Set(['beneficiaryId']);
/** World resources never join a path pool (a list answers them too). */
const WORLD_IDS = new Set<string>(Object.values(ids));

/** Free text: printable ASCII mostly, sometimes any code unit (NUL, lone surrogates, RTL marks…). */
const textArb = (minLength: number, maxLength: number) =>
  fc.oneof({ weight: 3, arbitrary: fc.string({ minLength, maxLength }) }, { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength, maxLength }) });

/** A valid value of a schema (well, one the schema accepts; the use case may still refuse it). */
function schemaArb(schema: JsonSchema, hint: string): fc.Arbitrary<unknown> {
  const special = HINTS[hint];
  if (special) return special(schema);
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.oneOf ?? schema.anyOf;
  if (alternatives) return fc.oneof(...alternatives.map((alternative) => schemaArb(alternative, hint)));
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type ?? (schema.properties ? 'object' : 'string')) {
    case 'object': {
      const properties = schema.properties ?? {};
      const model = Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, schemaArb(property, name)]));
      return fc.record(model, { requiredKeys: (schema.required ?? []).filter((name) => name in properties) });
    }
    case 'array':
      return fc.array(schemaArb(schema.items ?? {}, hint), { minLength: schema.minItems ?? 0, maxLength: Math.min(schema.maxItems ?? 4, 4) });
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1000 });
    case 'number':
      return fc.double({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1000, noNaN: true });
    case 'boolean':
      return fc.boolean();
    default: {
      if (schema.format === 'uuid') return fc.uuid();
      if (schema.format === 'date-time')
        return fc.date({ min: new Date('2026-01-01'), max: new Date('2027-12-31'), noInvalidDate: true }).map((date) => date.toISOString());
      if (schema.pattern) {
        const [min, max] = [schema.minLength ?? 0, schema.maxLength ?? Infinity];
        // No filter: a filter that rarely passes makes fast-check spin synchronously (no test timeout
        // can fire). Out-of-bounds strings become the schema's example instead.
        const fallback = typeof schema.example === 'string' ? schema.example : 'x'.repeat(Math.max(min, 1));
        return fc.stringMatching(new RegExp(schema.pattern)).map((text) => (text.length >= min && text.length <= max ? text : fallback));
      }
      return textArb(schema.minLength ?? 0, Math.min(schema.maxLength ?? 40, 200));
    }
  }
}

// ---------------------------------------------------------------------------------------------
// A case: an operation, a caller, parameters and a body (with pool references), maybe a scenario
// that reuses a real resource (an estimate's feeHash, a payout of the caller).

export interface Case {
  op: number;
  user: User | null;
  path: Record<string, unknown>;
  query: Record<string, unknown>;
  body: unknown;
  idempotencyKey: string | undefined;
  scenario: { kind: 'payrollEstimate' | 'payoutEstimate' | 'payout'; n: number; purposeCodes: string[] } | undefined;
}

const caseArbs = new WeakMap<Spec, Map<number, fc.Arbitrary<Case>>>();

/**
 * The requests of one operation. Made once per operation and reused by every run: an arbitrary is
 * immutable, and building one tokenises each of the schema's patterns (fc.stringMatching), which
 * was a tenth of the fuzz file's CPU when done on every run.
 */
export function caseArb(spec: Spec, opIndex: number): fc.Arbitrary<Case> {
  let arbs = caseArbs.get(spec);
  if (!arbs) caseArbs.set(spec, (arbs = new Map()));
  let arb = arbs.get(opIndex);
  if (!arb) arbs.set(opIndex, (arb = newCaseArb(spec, opIndex)));
  return arb;
}

function newCaseArb(spec: Spec, opIndex: number): fc.Arbitrary<Case> {
  const op = spec.operations[opIndex]!;
  const params = (where: 'path' | 'query') =>
    fc.record(
      Object.fromEntries(
        op.parameters
          .filter((p) => p.in === where)
          .map((p) => [
            p.name,
            where === 'path' && (!HINTS[p.name] || POOLED_PATH_PARAMS.has(p.name))
              ? uuidOr(
                  fc.nat().map((n) => new PoolRef(`param:${p.name}`, n)),
                  3,
                )
              : schemaArb(p.schema, p.name),
          ]),
      ),
      { requiredKeys: op.parameters.filter((p) => p.in === where && (p.required || where === 'path')).map((p) => p.name) },
    );
  const user: fc.Arbitrary<User | null> =
    op.role === 'public'
      ? fc.constant(null)
      : op.role === 'admin'
        ? fc.constant('admin')
        : fc.oneof(
            { weight: 9, arbitrary: fc.constant('userA' as const) },
            { weight: 1, arbitrary: fc.constant('userB' as const) },
            // Customer A's approver, mostly where approving and rejecting are done.
            { weight: ['approvePayrollRequest', 'rejectPayrollRequest'].includes(op.operationId) ? 6 : 1, arbitrary: fc.constant('userA2' as const) },
          );
  // Bodies from the schema, and now and then the spec's own request examples (foreign ids: 404s).
  const fromSchema = op.bodySchema ? schemaArb(op.bodySchema, '') : fc.constant(undefined);
  const body =
    op.bodyExamples.length > 0 ? fc.oneof({ weight: 6, arbitrary: fromSchema }, { weight: 1, arbitrary: fc.constantFrom(...op.bodyExamples) }) : fromSchema;
  const hasKey = op.parameters.some((p) => p.in === 'header' && p.name === 'Idempotency-Key');
  const idempotencyKey = hasKey
    ? fc.oneof(
        { weight: 6, arbitrary: fc.constant(undefined) },
        { weight: 1, arbitrary: fc.constantFrom('fuzz-key-1', 'fuzz-key-2') },
        { weight: 1, arbitrary: fc.uuid() },
      )
    : fc.constant(undefined);
  const scenarioKind = ({ createPayrollRequest: 'payrollEstimate', createPayout: 'payoutEstimate', getPayout: 'payout' } as const)[
    op.operationId as 'createPayout'
  ];
  const scenario = scenarioKind
    ? fc.option(
        fc.record({
          kind: fc.constant(scenarioKind),
          n: fc.nat(),
          purposeCodes: fc.array(fc.constantFrom('SAL', 'FCISS', 'PEN', 'OFS'), { minLength: 1, maxLength: 4 }),
        }),
        { freq: 2, nil: undefined },
      )
    : fc.constant(undefined);
  return fc.record({ op: fc.constant(opIndex), user, path: params('path'), query: params('query'), body, idempotencyKey, scenario });
}

export interface Request {
  op: Operation;
  user: User | null;
  method: string;
  /** Path with its parameters already encoded (or raw garbage). */
  path: string;
  /** The raw query string, without '?'. */
  query: string;
  headers: Record<string, string>;
  /** The JSON value to send (serialised later), or raw text. */
  body: { json: unknown } | { raw: string | Blob } | undefined;
  /** Values kept for harvesting: the decoded parameters and the JSON body. */
  pathValues: Record<string, string>;
  queryValues: Record<string, string>;
}

function resolve(value: unknown, fallback = () => '00000000-0000-4000-8000-000000000000'): unknown {
  if (value instanceof PoolRef) {
    if (value.pool === 'requestIds') return pick(pools.requestIds, value.n) ?? fallback();
    if (value.pool === 'payouts') return pick(pools.payouts, value.n)?.payoutId ?? fallback();
    if (value.pool === 'cursors') return pick(pools.cursors, value.n)?.cursor ?? 'no-cursor-yet';
    if (value.pool === 'payrollEstimates') return pick(pools.payrollEstimates, value.n)?.feeHash ?? 'x'.repeat(43);
    if (value.pool.startsWith('param:')) return pick(idPools.get(value.pool.slice(6)) ?? [], value.n) ?? fallback();
    return fallback();
  }
  if (Array.isArray(value)) return value.map((item) => resolve(item, fallback));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, resolve(item, fallback)]));
  return value;
}

export function materialize(spec: Spec, tokens: Record<User, string>, c: Case): Request {
  const op = spec.operations[c.op]!;
  let user = c.user;
  let pathValues = resolve(c.path) as Record<string, unknown>;
  const queryValues = resolve(c.query) as Record<string, unknown>;
  let body = resolve(c.body);
  if (c.scenario?.kind === 'payrollEstimate') {
    const estimate = pick(pools.payrollEstimates, c.scenario.n);
    if (estimate) {
      user = estimate.user;
      const entries = (estimate.body.amountSplitDetails as Array<Record<string, unknown>>).map((entry, i) => ({
        ...entry,
        purposeCode: c.scenario!.purposeCodes[i % c.scenario!.purposeCodes.length],
      }));
      body = { ...estimate.body, feeHash: estimate.feeHash, amountSplitDetails: entries };
    }
  } else if (c.scenario?.kind === 'payoutEstimate') {
    const estimate = pick(pools.payoutEstimates, c.scenario.n);
    if (estimate) {
      user = estimate.user;
      pathValues = { accountId: estimate.accountId };
      body = { feeHash: estimate.feeHash, beneficiaryId: estimate.beneficiaryId, amount: estimate.amount, currency: estimate.currency };
    }
  } else if (c.scenario?.kind === 'payout') {
    const payout = pick(pools.payouts, c.scenario.n);
    if (payout) {
      user = payout.user;
      pathValues = { accountId: payout.accountId, payoutId: payout.payoutId };
    }
  }
  const headers: Record<string, string> = { accept: 'application/json' };
  if (user) headers.authorization = `Bearer ${tokens[user]}`;
  if (c.idempotencyKey) headers['idempotency-key'] = c.idempotencyKey;
  const stringify = (values: Record<string, unknown>) => Object.fromEntries(Object.entries(values).map(([key, value]) => [key, String(value)]));
  const path = stringify(pathValues);
  const query = stringify(queryValues);
  return {
    op,
    user,
    method: op.method.toUpperCase(),
    path: fillPath(op.path, Object.fromEntries(Object.entries(path).map(([key, value]) => [key, encodeURIComponent(value)]))),
    query: new URLSearchParams(query).toString(),
    headers,
    body: body === undefined ? undefined : { json: body },
    pathValues: path,
    queryValues: query,
  };
}

/** Keeps what a successful answer created, so later cases reach deeper into the use cases. */
export function harvest(spec: Spec, request: Request, response: RawResponse): void {
  // A file (the payroll CSV template) creates nothing to remember.
  if (response.json === undefined) return;
  const data = (response.json as { data: Record<string, unknown> }).data;
  const user = request.user as User;
  const body = request.body && 'json' in request.body ? (request.body.json as Record<string, unknown>) : {};
  for (const name of collectionOf(spec, request.op)) {
    const found = [data?.id, ...((data?.items as Array<{ id?: unknown }> | undefined) ?? []).map((item) => item.id)].filter(
      (id): id is string => typeof id === 'string',
    );
    const list = idPools.get(name) ?? [];
    for (const id of found) if (!list.includes(id) && !WORLD_IDS.has(id)) list.push(id);
    idPools.set(name, list.slice(-POOL_CAP));
  }
  switch (request.op.operationId) {
    case 'estimatePayrollFee':
      remember('payrollEstimates', { user, body, feeHash: data.feeHash as string });
      break;
    case 'createPayrollRequest':
      if (!pools.requestIds.includes(data.id as string)) remember('requestIds', data.id as string);
      break;
    case 'estimatePayoutFees':
      remember('payoutEstimates', {
        user,
        accountId: request.pathValues.accountId!,
        beneficiaryId: request.queryValues.beneficiaryId!,
        amount: request.queryValues.amount!,
        currency: request.queryValues.currency!,
        feeHash: data.feeHash as string,
      });
      break;
    case 'createPayout':
      remember('payouts', { user, accountId: request.pathValues.accountId!, payoutId: data.id as string });
      break;
    case 'listPayrollRequests':
    case 'listAdminPayrollRequests':
      if (data.nextCursor)
        remember('cursors', {
          cursor: data.nextCursor as string,
          status: request.queryValues.status,
          admin: request.op.operationId === 'listAdminPayrollRequests',
        });
      break;
    case 'listBeneficiaries':
    case 'listAccountTransactions':
      // Statement cursors join the pool too: valid only for the statement and its filters.
      if (data.nextCursor) remember('cursors', { cursor: data.nextCursor as string, status: undefined, admin: false });
      break;
    case 'listEvents':
      // Event cursors join the pool: valid for listEvents, a 400 for the request lists, and the reverse.
      if (data.nextCursor) remember('cursors', { cursor: data.nextCursor as string, status: undefined, admin: false });
      break;
  }
}
