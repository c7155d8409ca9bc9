/**
 * Fuzzing from the spec. For every operation of the bundled spec (the list comes from the spec,
 * so a new operation is fuzzed without touching this file) fast-check generates requests that
 * follow the contract, with the right token and real ids of the test world so that many reach
 * the use cases, and requests broken in every way the issue lists. For every case:
 *   - never a 5xx; the answer is the envelope, its error code one of ErrorCode and its status one
 *     the operation documents (response validation is on: a 2xx that breaks the spec is a 500);
 *   - a rejected request (4xx) changes no state: balances, fee estimates, requests, payouts,
 *     transfers, ledger entries, statuses and rates are compared before and after.
 * Requests are sent raw with fetch, so anything can be sent. The seed is printed at the start and
 * the end (and by fast-check on a failure). Knobs: FUZZ_SEED=<seed> replays a run;
 * FUZZ_VALID_RUNS / FUZZ_BROKEN_RUNS change the counts; FUZZ_COLLECT=1 gathers every violation
 * instead of stopping at the first (exploration); FUZZ_DEBUG=1 prints each request.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerMismatches } from '../../src/store/ledger.js';
import { ids } from '../fixtures/world.js';
import { TEST_DATABASE_URL } from '../support/database.js';
import { type TestServer, startTestServer } from '../support/server.js';
import { drain, workerFor } from '../support/worker.js';
import {
  GLOBAL_STATUSES,
  type JsonSchema,
  type Operation,
  type RawResponse,
  type Spec,
  type StateSnapshot,
  expectDocumented,
  expectEnvelope,
  fillPath,
  loadSpec,
  send,
  snapshot,
  writeMarker,
} from './spec.js';

const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Math.floor(Math.random() * 2 ** 31);
/** Contract-following requests and broken requests; together at least 5,000 cases a run. */
const VALID_RUNS = Number(process.env.FUZZ_VALID_RUNS ?? 1500);
const BROKEN_RUNS = Number(process.env.FUZZ_BROKEN_RUNS ?? 3600);

let spec: Spec;
let server: TestServer;
const tokens: Record<User, string> = { userA: '', userB: '', admin: '' };
type User = 'userA' | 'userB' | 'admin';
const userIds: Record<User, string> = { userA: ids.userA, userB: ids.userB, admin: ids.admin };

// ---------------------------------------------------------------------------------------------
// Pools of real resources, filled from the world and from the answers of earlier cases.

interface PayrollEstimate { user: User; body: Record<string, unknown>; feeHash: string }
interface PayoutEstimate { user: User; accountId: string; beneficiaryId: string; amount: string; currency: string; feeHash: string }
interface PayoutRef { user: User; accountId: string; payoutId: string }
interface CursorRef { cursor: string; status: string | undefined; admin: boolean }

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
function collectionOf(op: Operation): string[] {
  return spec.operations.flatMap((other) => [...other.path.matchAll(/\{([^}]+)\}/g)].filter((m) => other.path.slice(0, m.index - 1) === op.path).map((m) => m[1]!));
}
const POOL_CAP = 60;
function remember<K extends PoolName>(pool: K, item: (typeof pools)[K][number]): void {
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
function pick<T>(list: readonly T[], n: number): T | undefined {
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
  beneficiaryId: () => fc.oneof({ weight: 12, arbitrary: fc.constantFrom(...beneficiaries) }, { weight: 1, arbitrary: fc.constantFrom(ids.beneficiaryAInactive, ids.beneficiaryB1) }, { weight: 1, arbitrary: fc.uuid() }),
  sourceAccountCurrencyId: () => uuidOr(fc.oneof({ weight: 6, arbitrary: fc.constant(ids.acAUsd) }, { weight: 2, arbitrary: fc.constant(ids.acAUsdc) }, { weight: 1, arbitrary: fc.constant(ids.acBUsd) }), 12),
  payrollAccountCurrencyId: () => uuidOr(fc.oneof({ weight: 6, arbitrary: fc.constant(ids.acPartnerAed) }, { weight: 1, arbitrary: fc.constantFrom(ids.acPartnerJpy, ids.acAAed, ids.acAUsd) }), 12),
  accountId: () => uuidOr(fc.oneof({ weight: 6, arbitrary: fc.constant(ids.accountAUsd) }, { weight: 1, arbitrary: fc.constantFrom(ids.accountAUsdc, ids.accountBUsd, ids.accountPartnerBank, ids.accountAAed) })),
  requestId: () => uuidOr(fc.nat().map((n) => new PoolRef('requestIds', n))),
  payoutId: () => uuidOr(fc.nat().map((n) => new PoolRef('payouts', n)), 3),
  cursor: () => fc.oneof({ weight: 3, arbitrary: fc.nat().map((n) => new PoolRef('cursors', n)) }, { weight: 1, arbitrary: fc.string({ maxLength: 30 }) }),
  amount: () => amountArb,
  exchangeRate: () => rateArb,
  rate: () => rateArb,
  currency: () => fc.oneof({ weight: 8, arbitrary: fc.constant('USD') }, { weight: 2, arbitrary: fc.constantFrom(...currencies) }, { weight: 1, arbitrary: fc.stringMatching(/^[A-Z]{3,5}$/) }),
  fromCurrencyCode: () => fc.oneof({ weight: 6, arbitrary: fc.constantFrom('USD', 'USDC') }, { weight: 1, arbitrary: fc.constantFrom(...currencies, 'XYZ') }),
  toCurrencyCode: () => fc.oneof({ weight: 6, arbitrary: fc.constantFrom('AED', 'JPY') }, { weight: 1, arbitrary: fc.constantFrom(...currencies, 'XYZ') }),
  expiresAt: () => fc.integer({ min: -120, max: 26 * 60 }).map((minutes) => new Date(Date.parse('2026-11-23T10:00:00.000Z') + minutes * 60_000).toISOString()),
  feeHash: (schema) => fc.oneof({ weight: 1, arbitrary: schemaArb(schema, '') }, { weight: 1, arbitrary: fc.nat().map((n) => new PoolRef('payrollEstimates', n)) }),
  amountSplitDetails: (schema) =>
    fc.uniqueArray(schemaArb(schema.items ?? {}, ''), { minLength: Math.max(schema.minItems ?? 0, 1), maxLength: 4, selector: (entry) => (entry as { beneficiaryId?: unknown }).beneficiaryId }),
  reason: (schema) => textArb(schema.minLength ?? 1, Math.min(schema.maxLength ?? 60, 60)),
};

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
      if (schema.format === 'date-time') return fc.date({ min: new Date('2026-01-01'), max: new Date('2027-12-31'), noInvalidDate: true }).map((date) => date.toISOString());
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

interface Case {
  op: number;
  user: User | null;
  path: Record<string, unknown>;
  query: Record<string, unknown>;
  body: unknown;
  idempotencyKey: string | undefined;
  scenario: { kind: 'payrollEstimate' | 'payoutEstimate' | 'payout'; n: number; purposeCodes: string[] } | undefined;
}

function caseArb(opIndex: number): fc.Arbitrary<Case> {
  const op = spec.operations[opIndex]!;
  const params = (where: 'path' | 'query') =>
    fc.record(
      Object.fromEntries(
        op.parameters
          .filter((p) => p.in === where)
          .map((p) => [p.name, where === 'path' && !HINTS[p.name] ? uuidOr(fc.nat().map((n) => new PoolRef(`param:${p.name}`, n)), 3) : schemaArb(p.schema, p.name)]),
      ),
      { requiredKeys: op.parameters.filter((p) => p.in === where && (p.required || where === 'path')).map((p) => p.name) },
    );
  const user: fc.Arbitrary<User | null> =
    op.role === 'public' ? fc.constant(null) : op.role === 'admin' ? fc.constant('admin') : fc.oneof({ weight: 9, arbitrary: fc.constant('userA' as const) }, { weight: 1, arbitrary: fc.constant('userB' as const) });
  // Bodies from the schema, and now and then the spec's own request examples (foreign ids: 404s).
  const fromSchema = op.bodySchema ? schemaArb(op.bodySchema, '') : fc.constant(undefined);
  const body = op.bodyExamples.length > 0 ? fc.oneof({ weight: 6, arbitrary: fromSchema }, { weight: 1, arbitrary: fc.constantFrom(...op.bodyExamples) }) : fromSchema;
  const hasKey = op.parameters.some((p) => p.in === 'header' && p.name === 'Idempotency-Key');
  const idempotencyKey = hasKey
    ? fc.oneof({ weight: 6, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constantFrom('fuzz-key-1', 'fuzz-key-2') }, { weight: 1, arbitrary: fc.uuid() })
    : fc.constant(undefined);
  const scenarioKind = ({ createPayrollRequest: 'payrollEstimate', createPayout: 'payoutEstimate', getPayout: 'payout' } as const)[op.operationId as 'createPayout'];
  const scenario = scenarioKind
    ? fc.option(fc.record({ kind: fc.constant(scenarioKind), n: fc.nat(), purposeCodes: fc.array(fc.constantFrom('SAL', 'FCISS', 'PEN', 'OFS'), { minLength: 1, maxLength: 4 }) }), { freq: 2, nil: undefined })
    : fc.constant(undefined);
  return fc.record({ op: fc.constant(opIndex), user, path: params('path'), query: params('query'), body, idempotencyKey, scenario });
}

interface Request {
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

function materialize(c: Case): Request {
  const op = spec.operations[c.op]!;
  let user = c.user;
  let pathValues = resolve(c.path) as Record<string, unknown>;
  let queryValues = resolve(c.query) as Record<string, unknown>;
  let body = resolve(c.body);
  if (c.scenario?.kind === 'payrollEstimate') {
    const estimate = pick(pools.payrollEstimates, c.scenario.n);
    if (estimate) {
      user = estimate.user;
      const entries = (estimate.body.amountSplitDetails as Array<Record<string, unknown>>).map((entry, i) => ({ ...entry, purposeCode: c.scenario!.purposeCodes[i % c.scenario!.purposeCodes.length] }));
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

// ---------------------------------------------------------------------------------------------
// Broken requests: each mutation takes a valid request and breaks one thing.

/** A raw JSON fragment placed in the body text as is (1e400, "\ud800", duplicate keys…). */
class RawJson {
  constructor(readonly text: string) {}
}

function serialise(value: unknown): string {
  const raws: string[] = [];
  const text = JSON.stringify(value, (_key, item: unknown) => {
    if (item instanceof RawJson) {
      raws.push(item.text);
      return `__RAW_${raws.length - 1}__`;
    }
    return item;
  });
  return text.replace(/"__RAW_(\d+)__"/g, (_match, n: string) => raws[Number(n)]!);
}

type Path = Array<string | number>;

/** Every location in a JSON value (first two items of arrays), root excluded. */
function locations(value: unknown, at: Path = []): Path[] {
  const found: Path[] = [];
  if (Array.isArray(value)) {
    value.slice(0, 2).forEach((item, i) => found.push([...at, i], ...locations(item, [...at, i])));
  } else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) found.push([...at, key], ...locations(item, [...at, key]));
  }
  return found;
}

function getAt(value: unknown, path: Path): unknown {
  return path.reduce<unknown>((node, key) => (node as Record<string | number, unknown> | undefined)?.[key], value);
}

function setAt(value: unknown, path: Path, replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path;
  const copy: Record<string | number, unknown> | unknown[] = Array.isArray(value) ? [...value] : { ...(value as Record<string, unknown>) };
  (copy as Record<string | number, unknown>)[head!] = setAt((value as Record<string | number, unknown>)[head!], rest, replacement);
  return copy;
}

function deleteAt(value: unknown, path: Path): unknown {
  const parentPath = path.slice(0, -1);
  const parent = getAt(value, parentPath);
  const key = path[path.length - 1]!;
  if (Array.isArray(parent)) return setAt(value, parentPath, parent.filter((_item, i) => i !== key));
  const { [key]: _removed, ...rest } = parent as Record<string, unknown>;
  return setAt(value, parentPath, rest);
}

const WEIRD_AMOUNTS = [
  '1e400', '-0', '"-0"', '"0.000000001"', '"  1"', '"1 "', '"1."', '".5"', '"1e400"', '"1E2"', '"+1"', '"0x1A"', '"1,000.00"', '"1 000"',
  '"NaN"', '"Infinity"', '"-1"', '"-0.01"', '"00.10"', '"1.123456789"', '"9999999999999999999999999999999999"', '"١٢٣"', '"１２３"', '1000',
  '0.1', '1e-7', '-1', 'true', 'null', '"1\\u0000"', '"\\u202e1"', '""', '" "', '"1.0.0"', '"--1"', `"${'9'.repeat(10_000)}"`, '1.7976931348623157e309',
];
const WEIRD_STRINGS = [
  '"\\ud800"', '"\\udfff"', '"a\\ud800b"', '"\\udc00\\ud800"', '"\\u202eAED"', '"\\u200f"', '"\\u0000"', '"x\\u0000y"', '"\\ufeffUSD"', '"😀"', '"e\\u0301"',
  '"\\u2028\\u2029"', '"ＵＳＤ"', '"usd"', '"\\u0001\\u001f"', '"7e570006-0000-4000-8000-00000000000١"', '"urn:uuid:7e570006-0000-4000-8000-000000000001"',
  '"{7e570006-0000-4000-8000-000000000001}"', '"7e5700060000400080000000000000001"', '"7E570006-0000-4000-8000-000000000001"', '"00000000-0000-0000-0000-000000000000"',
  '"\'; DROP TABLE payroll_requests; --"', '"<script>alert(1)</script>"', '"%00"', '"\\\\"', '"SAL\\u0000"', '"PAYROLL "',
];
const WRONG_TYPES = ['0', '-1', '1.5', 'true', 'false', 'null', '[]', '{}', '[1,2]', '{"a":1}', '"x"', '""'];
const BAD_PATH_VALUES = [
  'not-a-uuid', '0', 'null', 'undefined', '%00', '%2F', '..%2F..%2Fhealthz', '%E0%A4%A', '%', '%zz', 'x'.repeat(1000), '7e570007-0000-4000-8000-00000000000G',
  '7e57000700004000800000000000000001', '%7B7e570007-0000-4000-8000-000000000001%7D', 'urn:uuid:7e570007-0000-4000-8000-000000000001',
  '00000000-0000-0000-0000-000000000000', '7E570007-0000-4000-8000-000000000001', '%27%3B%20DROP%20TABLE%20payroll_requests%3B--', '%C3%84%C3%96', '%F0%9F%98%80',
  '%ED%A0%80', '%E2%80%AE7e570007-0000-4000-8000-000000000001', '%20', 'usd', 'US', 'TOOLONG', 'a.b', '__proto__', 'constructor',
];
const STRUCTURAL_PATH_VALUES = ['', 'a/b', '7e570007-0000-4000-8000-000000000001/extra'];
const BAD_QUERIES = [
  'limit=1&limit=2', 'status[]=PENDING', 'unknown=1', 'limit=', 'status=', 'cursor=', '%zz=1', 'a=%E0%A4%A', '=', '&&&', 'limit=1e1', 'limit=0x10',
  'limit=%20%205', 'limit=-1', 'limit=0', 'limit=101', 'limit=1.5', 'status=pending', 'amount=1&amount=2', 'beneficiaryId[]=x', '__proto__=1',
  'constructor[prototype][x]=1', 'toString=1', 'hasOwnProperty=1', 'currency=%00', 'amount=1e400', 'amount=-0', 'amount=%20%201', 'amount=1.',
  'cursor=' + 'x'.repeat(300), 'status=PENDING&status=CANCELLED', 'limit[a]=1', 'limit=%EF%BC%91', 'x=' + '%'.repeat(50),
];
const CONTENT_TYPES = [
  'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=fuzzboundary', 'application/xml', 'none',
  'application/json; charset=utf-16', 'application/json; charset=iso-8859-1', 'application/jsonx', 'application/merge-patch+json', '*/*', 'text/json',
];
const MALFORMED_JSON = ['{', '{"a":}', "{'a':1}", '{"a":1,}', '[', '', 'null', 'nul', '"text"', '123', '{"a":1}}', '\u0000', '\ufeff{}', '{"a":"\u0001"}', '{"a" 1}', '[]', 'true', '{"__proto__":{"x":1}}', '{"constructor":{"prototype":{"x":1}}}'];
const BAD_HEADERS: Array<[string, string]> = [
  ['idempotency-key', ''], ['idempotency-key', ' '], ['idempotency-key', 'a b'], ['idempotency-key', 'k'.repeat(256)], ['idempotency-key', 'é'],
  ['x-request-id', 'r'.repeat(201)], ['x-request-id', ''], ['x-request-id', 'a b\tc'], ['accept', 'text/html'], ['accept', 'application/xml'],
  ['authorization', 'Bearer'],
];

type Mutation =
  | { kind: 'removeField'; n: number }
  | { kind: 'extraField'; n: number; name: string; value: string }
  | { kind: 'wrongType'; n: number; value: string }
  | { kind: 'emptyArray'; n: number }
  | { kind: 'hugeArray'; n: number }
  | { kind: 'weirdAmount'; n: number; value: string }
  | { kind: 'longString'; n: number }
  | { kind: 'unicode'; n: number; value: string }
  | { kind: 'deepNesting'; where: 'root' | 'field'; shape: 'array' | 'object'; n: number }
  | { kind: 'duplicateKey'; n: number; value: string; wrongFirst: boolean }
  | { kind: 'contentType'; value: string }
  | { kind: 'overLimit' }
  | { kind: 'malformedJson'; value: string }
  | { kind: 'badPathParam'; n: number; value: string }
  | { kind: 'structuralPath'; n: number; value: string }
  | { kind: 'badQuery'; value: string }
  | { kind: 'dropQuery'; n: number }
  | { kind: 'badHeader'; header: [string, string] }
  | { kind: 'wrongMethod'; method: string };

function mutationArb(op: Operation): fc.Arbitrary<Mutation> {
  const n = fc.nat();
  const body: Array<fc.WeightedArbitrary<Mutation>> = [
    { weight: 4, arbitrary: fc.record({ kind: fc.constant('removeField' as const), n }) },
    { weight: 3, arbitrary: fc.record({ kind: fc.constant('extraField' as const), n, name: fc.oneof(fc.constantFrom('extra', '__proto__', 'constructor', 'id', 'status', 'customerId', ''), fc.string({ maxLength: 10 })), value: fc.constantFrom(...WRONG_TYPES) }) },
    { weight: 5, arbitrary: fc.record({ kind: fc.constant('wrongType' as const), n, value: fc.constantFrom(...WRONG_TYPES) }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('emptyArray' as const), n }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('hugeArray' as const), n }) },
    { weight: 6, arbitrary: fc.record({ kind: fc.constant('weirdAmount' as const), n, value: fc.constantFrom(...WEIRD_AMOUNTS) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('longString' as const), n }) },
    { weight: 5, arbitrary: fc.record({ kind: fc.constant('unicode' as const), n, value: fc.constantFrom(...WEIRD_STRINGS) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('deepNesting' as const), where: fc.constantFrom('root' as const, 'field' as const), shape: fc.constantFrom('array' as const, 'object' as const), n }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('duplicateKey' as const), n, value: fc.constantFrom(...WRONG_TYPES), wrongFirst: fc.boolean() }) },
    { weight: 3, arbitrary: fc.record({ kind: fc.constant('contentType' as const), value: fc.constantFrom(...CONTENT_TYPES) }) },
    { weight: 1, arbitrary: fc.constant({ kind: 'overLimit' as const }) },
    { weight: 3, arbitrary: fc.record({ kind: fc.constant('malformedJson' as const), value: fc.constantFrom(...MALFORMED_JSON) }) },
  ];
  const always: Array<fc.WeightedArbitrary<Mutation>> = [
    { weight: 3, arbitrary: fc.record({ kind: fc.constant('badQuery' as const), value: fc.constantFrom(...BAD_QUERIES) }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('badHeader' as const), header: fc.constantFrom(...BAD_HEADERS) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('wrongMethod' as const), method: fc.constantFrom('DELETE', 'PATCH', 'PUT', 'POST', 'GET') }) },
  ];
  const path: Array<fc.WeightedArbitrary<Mutation>> = op.parameters.some((p) => p.in === 'path')
    ? [
        { weight: 6, arbitrary: fc.record({ kind: fc.constant('badPathParam' as const), n, value: fc.constantFrom(...BAD_PATH_VALUES) }) },
        { weight: 1, arbitrary: fc.record({ kind: fc.constant('structuralPath' as const), n, value: fc.constantFrom(...STRUCTURAL_PATH_VALUES) }) },
      ]
    : [];
  const query: Array<fc.WeightedArbitrary<Mutation>> = op.parameters.some((p) => p.in === 'query')
    ? [{ weight: 3, arbitrary: fc.record({ kind: fc.constant('dropQuery' as const), n }) }, { weight: 3, arbitrary: fc.record({ kind: fc.constant('badQuery' as const), value: fc.constantFrom(...BAD_QUERIES) }) }]
    : [];
  // An operation without a body still gets bodies sent to it (a POST may carry one anyway).
  const bodies = op.method === 'get' ? [] : op.bodySchema ? body : body.filter((_b, i) => i >= 10);
  return fc.oneof(...bodies, ...always, ...path, ...query);
}

const HUGE_STRING = 'x'.repeat(100_000);
const OVER_LIMIT = 'y'.repeat(2 * 1024 * 1024 + 1024);

/** Applies a mutation; returns the statuses it makes legitimate beyond the operation's own. */
function mutate(request: Request, mutation: Mutation): { request: Request; extra: number[] } {
  const r: Request = { ...request, headers: { ...request.headers } };
  const json = request.body && 'json' in request.body ? request.body.json : {};
  const places = locations(json);
  const at = (n: number, filter: (path: Path) => boolean = () => true): Path | undefined => pick(places.filter(filter), n);
  const stringPlaces = (path: Path) => typeof getAt(json, path) === 'string';
  const withBody = (value: unknown) => (r.body = { json: value });
  switch (mutation.kind) {
    case 'removeField': {
      const path = at(mutation.n);
      withBody(path ? deleteAt(json, path) : {});
      break;
    }
    case 'extraField': {
      const objects = [[] as Path, ...places.filter((path) => { const v = getAt(json, path); return !!v && typeof v === 'object' && !Array.isArray(v); })];
      const target = pick(objects, mutation.n)!;
      const node = getAt(json, target) as Record<string, unknown>;
      withBody(setAt(json, target, { ...node, [mutation.name]: new RawJson(mutation.value) }));
      break;
    }
    case 'wrongType': {
      const path = pick([[] as Path, ...places], mutation.n)!;
      withBody(setAt(json, path, new RawJson(mutation.value)));
      break;
    }
    case 'emptyArray': {
      const path = at(mutation.n, (p) => Array.isArray(getAt(json, p))) ?? at(mutation.n);
      withBody(path ? setAt(json, path, []) : []);
      break;
    }
    case 'hugeArray': {
      const path = at(mutation.n, (p) => Array.isArray(getAt(json, p))) ?? at(mutation.n) ?? ['items'];
      const model = (getAt(json, path) as unknown[] | undefined)?.[0] ?? getAt(json, path) ?? 1;
      withBody(setAt(json, path, Array.from({ length: 10_001 }, () => model)));
      break;
    }
    case 'weirdAmount': {
      const amounts = (p: Path) => ['amount', 'exchangeRate', 'rate'].includes(String(p[p.length - 1]));
      const path = at(mutation.n, amounts) ?? at(mutation.n, stringPlaces) ?? ['amount'];
      withBody(setAt(json, path, new RawJson(mutation.value)));
      break;
    }
    case 'longString': {
      const path = at(mutation.n, stringPlaces) ?? ['long'];
      withBody(setAt(json, path, HUGE_STRING));
      break;
    }
    case 'unicode': {
      const path = at(mutation.n, stringPlaces) ?? ['text'];
      withBody(setAt(json, path, new RawJson(mutation.value)));
      break;
    }
    case 'deepNesting': {
      const depth = 10_000;
      const nested = mutation.shape === 'array' ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
      if (mutation.where === 'root') r.body = { raw: nested };
      else withBody(setAt(json, at(mutation.n) ?? ['nested'], new RawJson(nested)));
      break;
    }
    case 'duplicateKey': {
      const text = serialise(json);
      const keys = json && typeof json === 'object' && !Array.isArray(json) ? Object.keys(json) : [];
      const key = pick(keys, mutation.n) ?? 'key';
      const inner = text.startsWith('{') && text.length > 2 ? text.slice(1, -1) : '';
      const duplicate = `${JSON.stringify(key)}:${mutation.value}`;
      r.body = { raw: mutation.wrongFirst ? `{${duplicate}${inner ? ',' + inner : ''}}` : `{${inner ? inner + ',' : ''}${duplicate}}` };
      break;
    }
    case 'contentType': {
      const text = serialise(json);
      if (mutation.value === 'application/x-www-form-urlencoded') {
        r.body = { raw: new URLSearchParams(Object.entries(json as Record<string, unknown>).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)])).toString() };
      } else if (mutation.value.startsWith('multipart/')) {
        r.body = { raw: `--fuzzboundary\r\nContent-Disposition: form-data; name="body"\r\nContent-Type: application/json\r\n\r\n${text}\r\n--fuzzboundary--\r\n` };
      } else {
        r.body = { raw: mutation.value === 'none' ? new Blob([text]) : text }; // a Blob without a type: no Content-Type at all
      }
      if (mutation.value !== 'none') r.headers['content-type'] = mutation.value;
      return { request: r, extra: [] };
    }
    case 'overLimit':
      r.body = { raw: serialise({ ...(json as object), padding: OVER_LIMIT }) };
      break;
    case 'malformedJson':
      r.body = { raw: mutation.value };
      break;
    case 'badPathParam':
    case 'structuralPath': {
      const names = request.op.parameters.filter((p) => p.in === 'path').map((p) => p.name);
      const name = pick(names, mutation.n)!;
      const values = Object.fromEntries(names.map((key) => [key, encodeURIComponent(request.pathValues[key] ?? '')]));
      r.path = fillPath(request.op.path, { ...values, [name]: mutation.value });
      return { request: r, extra: mutation.kind === 'structuralPath' ? [GLOBAL_STATUSES.unknownPath, GLOBAL_STATUSES.wrongMethod] : [] };
    }
    case 'badQuery':
      r.query = [request.query, mutation.value].filter(Boolean).join('&');
      return { request: r, extra: [] };
    case 'dropQuery': {
      const entries = [...new URLSearchParams(request.query)];
      r.query = new URLSearchParams(entries.filter((_entry, i) => i !== mutation.n % Math.max(entries.length, 1))).toString();
      return { request: r, extra: [] };
    }
    case 'badHeader': {
      const [name, value] = mutation.header;
      r.headers[name] = value;
      return { request: r, extra: [] };
    }
    case 'wrongMethod': {
      const defined = Object.keys(spec.raw.paths[request.op.path] ?? {}).map((m) => m.toUpperCase());
      if (defined.includes(mutation.method)) return { request: r, extra: [] };
      r.method = mutation.method;
      if (r.method === 'GET') r.body = undefined;
      return { request: r, extra: [GLOBAL_STATUSES.wrongMethod] };
    }
  }
  if (r.method === 'GET') r.body = undefined; // fetch cannot send one
  return { request: r, extra: [] };
}

// ---------------------------------------------------------------------------------------------

const stats = { cases: 0, byStatus: new Map<number, number>(), byOperation: new Map<string, [number, number]>(), byMutation: new Map<string, number>(), rejectedChecked: 0, accepted: 0, sendMs: 0, snapshotMs: 0, fullSnapshots: 0 };
let last: StateSnapshot;
let lastMarker = '';

async function run(request: Request, context: string, mutated: boolean, extra: number[] = []): Promise<RawResponse> {
  const headers = { ...request.headers };
  let body: string | Blob | undefined;
  if (request.body && 'json' in request.body) {
    body = serialise(request.body.json);
    headers['content-type'] ??= 'application/json';
  } else if (request.body) {
    body = request.body.raw;
    if (typeof body === 'string') headers['content-type'] ??= 'application/json';
  }
  const url = `${server.baseUrl}${request.path}${request.query ? `?${request.query}` : ''}`;
  const init: RequestInit = { method: request.method, headers };
  if (body !== undefined && request.method !== 'GET' && request.method !== 'HEAD') init.body = body;
  const where = `${context}: ${request.method} ${url.slice(0, 300)} [${request.user ?? 'no token'}] ${typeof body === 'string' ? body.slice(0, 300) : body ? '<bytes>' : ''}`;
  if (process.env.FUZZ_DEBUG) console.log(where.slice(0, 200));
  const started = performance.now();
  const response = await send(url, init);
  stats.sendMs += performance.now() - started;
  stats.cases += 1;
  stats.byStatus.set(response.status, (stats.byStatus.get(response.status) ?? 0) + 1);
  const ok = response.status < 300 ? 1 : 0;
  const [count, accepted] = stats.byOperation.get(request.op.operationId) ?? [0, 0];
  stats.byOperation.set(request.op.operationId, [count + 1, accepted + ok]);

  const snapped = performance.now();
  const marker = await writeMarker(server.db);
  const after = marker === lastMarker ? last : await snapshot(server.db);
  if (marker !== lastMarker) stats.fullSnapshots += 1;
  lastMarker = marker;
  stats.snapshotMs += performance.now() - snapped;
  const before = last;
  last = after;
  await check(where, () => {
    expectEnvelope(spec, response, where);
    expectDocumented(request.op, response.status, where, extra);
    if (response.status >= 400) expect(after, `${where}: a rejected request (${response.status}) changed the state`).toEqual(before);
  });
  if (response.status >= 400) {
    stats.rejectedChecked += 1;
  } else {
    stats.accepted += 1;
    if (!mutated) harvest(request, response); // what a broken request carried is not what the server kept
  }
  return response;
}

/**
 * FUZZ_COLLECT=1 (exploration): violations are gathered, grouped and printed at the end instead
 * of stopping the run at the first; the test still fails if there was any.
 */
const COLLECT = process.env.FUZZ_COLLECT === '1';
const collected = new Map<string, { count: number; example: string }>();
async function check(where: string, assertions: () => void): Promise<void> {
  if (!COLLECT) return assertions();
  try {
    assertions();
  } catch (error) {
    const message = (error as Error).message;
    const key = `${where.split(':')[0]} | ${message.replace(/^.*?→ /s, '').replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, '<id>').slice(0, 160)}`;
    const entry = collected.get(key) ?? { count: 0, example: message.slice(0, 600) };
    entry.count += 1;
    collected.set(key, entry);
  }
}

/** Keeps what a successful answer created, so later cases reach deeper into the use cases. */
function harvest(request: Request, response: RawResponse): void {
  const data = (response.json as { data: Record<string, unknown> }).data;
  const user = request.user as User;
  const body = request.body && 'json' in request.body ? (request.body.json as Record<string, unknown>) : {};
  for (const name of collectionOf(request.op)) {
    const found = [data?.id, ...((data?.items as Array<{ id?: unknown }> | undefined) ?? []).map((item) => item.id)].filter((id): id is string => typeof id === 'string');
    const list = idPools.get(name) ?? [];
    for (const id of found) if (!list.includes(id)) list.push(id);
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
      if (data.nextCursor) remember('cursors', { cursor: data.nextCursor as string, status: request.queryValues.status, admin: request.op.operationId === 'listAdminPayrollRequests' });
      break;
  }
}

beforeAll(async () => {
  spec = await loadSpec();
  server = await startTestServer();
  for (const user of Object.keys(tokens) as User[]) tokens[user] = await server.token(userIds[user], 24 * 3600);
  // A few requests in every status the lifecycle operations act on: PENDING, QUOTE_PROVIDED, EXECUTING.
  const worker = workerFor(server);
  const call = async (method: string, path: string, user: User, body?: unknown) => {
    const response = await send(`${server.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${tokens[user]}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    expect(response.status, response.text).toBeLessThan(300);
    return (response.json as { data: Record<string, unknown> }).data;
  };
  const accounts = { sourceAccountCurrencyId: ids.acAUsd, payrollAccountCurrencyId: ids.acPartnerAed };
  const created: string[] = [];
  for (let i = 0; i < 4; i++) {
    const entries = [{ beneficiaryId: beneficiaries[i]!, amount: `${100 + i}.00` }];
    const { feeHash } = await call('POST', '/v1/customers/payroll/estimate', 'userA', { ...accounts, amountSplitDetails: entries });
    const request = await call('POST', '/v1/customers/payroll/requests', 'userA', { ...accounts, feeHash, amountSplitDetails: entries.map((e) => ({ ...e, purposeCode: 'SAL' })) });
    created.push(request.id as string);
  }
  const expiresAt = new Date(server.clock.now().getTime() + 3600_000).toISOString();
  for (const id of created.slice(1)) await call('POST', `/v1/admin/payroll/requests/${id}/quote`, 'admin', { exchangeRate: '3.6530', expiresAt });
  for (const id of created.slice(2)) await call('POST', `/v1/customers/payroll/requests/${id}/accept`, 'userA');
  await drain(worker); // the accepted ones are EXECUTING, waiting for their FX record
  pools.requestIds.push(...created);
  lastMarker = await writeMarker(server.db);
  last = await snapshot(server.db);
}, 120_000);

afterAll(async () => {
  await server?.close();
});

function report(label: string, runs: number): void {
  const top = (map: Map<string | number, number>) => [...map.entries()].sort((a, b) => b[1] - a[1]).map(([key, count]) => `${key}: ${count}`).join(', ');
  console.log(
    `[fuzz] ${label}: seed ${SEED} (replay with FUZZ_SEED=${SEED}), ${runs} runs; ${stats.cases} requests so far on ${TEST_DATABASE_URL ? 'PostgreSQL' : 'embedded'}; ` +
      `${stats.accepted} accepted, ${stats.rejectedChecked} rejected with the state checked unchanged; ${Math.round(stats.sendMs)} ms in requests, ${Math.round(stats.snapshotMs)} ms in state checks (${stats.fullSnapshots} full snapshots)\n  statuses: ${top(stats.byStatus)}\n` +
      `  operations (cases/2xx): ${[...stats.byOperation].sort((a, b) => b[1][0] - a[1][0]).map(([op, [n, ok]]) => `${op} ${n}/${ok}`).join(', ')}` +
      (stats.byMutation.size ? `\n  mutations: ${top(stats.byMutation)}` : ''),
  );
}

describe('fuzzing every operation of the spec', () => {
  it('derives its operations from the spec', () => {
    expect(spec.operations.length).toBeGreaterThanOrEqual(14);
    for (const op of spec.operations) expect(op.statuses.size, op.operationId).toBeGreaterThan(0);
  });

  it(`contract-following requests (${VALID_RUNS} runs): envelope, documented status, rejections change nothing`, async () => {
    console.log(`[fuzz] seed ${SEED}`);
    const arbitrary = fc.nat({ max: spec.operations.length - 1 }).chain(caseArb);
    try {
      await fc.assert(
        fc.asyncProperty(arbitrary, async (c) => {
          const request = materialize(c);
          await run(request, `valid ${request.op.operationId}`, false);
        }),
        { seed: SEED, numRuns: VALID_RUNS, endOnFailure: true },
      );
    } finally {
      report('contract-following requests', VALID_RUNS);
    }
    expect(await ledgerMismatches(server.db)).toEqual([]);
    expect(stats.accepted).toBeGreaterThan(VALID_RUNS / 4); // the generator does reach the use cases
  }, 300_000);

  it(`broken requests (${BROKEN_RUNS} runs): never a 5xx, always the envelope, no state change`, async () => {
    const arbitrary = fc.nat({ max: spec.operations.length - 1 }).chain((op) => fc.tuple(caseArb(op), mutationArb(spec.operations[op]!)));
    try {
      await fc.assert(
        fc.asyncProperty(arbitrary, async ([c, mutation]) => {
          const { request, extra } = mutate(materialize(c), mutation);
          stats.byMutation.set(mutation.kind, (stats.byMutation.get(mutation.kind) ?? 0) + 1);
          await run(request, `broken ${request.op.operationId} (${mutation.kind}${'value' in mutation ? ` ${String(mutation.value).slice(0, 40)}` : ''})`, true, extra);
        }),
        { seed: SEED + 1, numRuns: BROKEN_RUNS, endOnFailure: true },
      );
    } finally {
      report('broken requests', BROKEN_RUNS);
    }
    expect(await ledgerMismatches(server.db)).toEqual([]);
    console.log(`[fuzz] total: ${stats.cases} cases fuzzed (seed ${SEED})`);
    if (COLLECT) for (const [key, { count, example }] of collected) console.log(`[fuzz] VIOLATION ×${count}: ${key}\n    ${example}`);
    expect(collected.size).toBe(0);
    expect(stats.cases).toBeGreaterThanOrEqual(5000);
  }, 300_000);
});
