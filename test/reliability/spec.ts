/**
 * The bundled, dereferenced spec as the reliability suite sees it: every operation, its role,
 * parameters, body schema and documented statuses, read from the spec itself so that a new
 * operation cannot escape the fuzzer or the auth matrix.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import { STATUS_OF } from '../../src/http/pipeline/envelope.js';
import type { Database } from '../../src/store/database/db.js';

export type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  pattern?: string;
  format?: string;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  example?: unknown;
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  allOf?: JsonSchema[];
};

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema: JsonSchema;
  example?: unknown;
}

export type Role = 'public' | 'customer' | 'admin';

export interface Operation {
  operationId: string;
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  path: string;
  tags: string[];
  role: Role;
  /** Documented response statuses. */
  statuses: Set<number>;
  parameters: Parameter[];
  bodySchema: JsonSchema | undefined;
  bodyRequired: boolean;
  /** The request examples of the spec (values only). */
  bodyExamples: unknown[];
}

export interface Spec {
  raw: { paths: Record<string, Record<string, unknown>>; components: { schemas: Record<string, JsonSchema> } };
  operations: Operation[];
  errorCodes: Set<string>;
  errorReasons: Set<string>;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

let cached: Promise<Spec> | undefined;

/** `redocly bundle --dereferenced` (the CLI the project pins), read back as JSON. Once per worker. */
export function loadSpec(): Promise<Spec> {
  cached ??= (async () => {
    const dir = await mkdtemp(join(tmpdir(), 'payroll-spec-'));
    try {
      const out = join(dir, 'openapi.json');
      await promisify(execFile)('node_modules/.bin/redocly', ['bundle', 'openapi/openapi.yaml', '-o', out, '--ext', 'json', '--dereferenced'], {
        env: { ...process.env, REDOCLY_TELEMETRY: 'off' },
      });
      return parseSpec(JSON.parse(await readFile(out, 'utf8')));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  })();
  return cached;
}

type RawOperation = {
  operationId: string;
  tags?: string[];
  security?: unknown[];
  parameters?: Parameter[];
  responses: Record<string, unknown>;
  requestBody?: { required?: boolean; content: Record<string, { schema: JsonSchema; examples?: Record<string, { value: unknown }> }> };
};

/** The roles an operation's security requirements name (`bearerAuth: [admin]`): OpenAPI 3.1's role names of a non-OAuth scheme. */
function rolesOf(security: unknown[]): string[] {
  return security.flatMap((requirement) => Object.values(requirement as Record<string, string[]>).flat());
}

function parseSpec(raw: Spec['raw'] & { security?: unknown[] }): Spec {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(raw.paths)) {
    const shared = (item.parameters as Parameter[] | undefined) ?? [];
    for (const method of METHODS) {
      const op = item[method] as RawOperation | undefined;
      if (!op) continue;
      const security = op.security ?? raw.security ?? [];
      const tags = op.tags ?? [];
      const role: Role = security.length === 0 ? 'public' : rolesOf(security).includes('admin') ? 'admin' : 'customer';
      const json = op.requestBody?.content['application/json'];
      operations.push({
        operationId: op.operationId,
        method,
        path,
        tags,
        role,
        statuses: new Set(Object.keys(op.responses).map(Number)),
        parameters: [...shared, ...(op.parameters ?? [])],
        bodySchema: json?.schema,
        bodyRequired: op.requestBody?.required ?? false,
        bodyExamples: Object.values(json?.examples ?? {}).map((example) => example.value),
      });
    }
  }
  const errorCodes = new Set((raw.components.schemas.ErrorCode!.enum ?? []) as string[]);
  const errorReasons = new Set((raw.components.schemas.ErrorReason!.enum ?? []) as string[]);
  return { raw, operations, errorCodes, errorReasons };
}

/** Statuses any path may answer besides its listed ones (the spec's "Envelope and errors" section). */
export const GLOBAL_STATUSES = { unknownPath: 404, wrongMethod: 405 } as const;

export interface RawResponse {
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
}

/** fetch, reading the body once, never throwing on a non-JSON answer (the assertion does). */
export async function send(url: string, init: RequestInit): Promise<RawResponse> {
  const response = await fetch(url, { signal: AbortSignal.timeout(20_000), ...init, redirect: 'manual' });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

/** The keys an error envelope's `error` may have: code and message, and the facts a client decides by. */
const ERROR_FACTS = new Set(['code', 'message', 'reason', 'field', 'entryIndex', 'details', 'detailsOmitted']);

/**
 * The answer is the envelope: `{success:true,data}` for 2xx, `{success:false,error:{code,message}}`
 * with a code of the spec's ErrorCode enum (and the status that code stands for) otherwise; JSON,
 * with an X-Request-Id; never a 5xx.
 */
export function expectEnvelope(spec: Spec, response: RawResponse, context: string): void {
  const where = `${context} → ${response.status} ${response.text.slice(0, 300)}`;
  expect(response.status, where).toBeLessThan(500);
  expect(response.headers.get('x-request-id'), where).toBeTruthy();
  // A file the operation documents as text/csv (the payroll template) is the one answer outside the envelope.
  if (response.status < 300 && /^text\/csv/.test(response.headers.get('content-type') ?? '')) return expect(response.text.length, where).toBeGreaterThan(0);
  expect(response.headers.get('content-type') ?? '', where).toMatch(/^application\/json/);
  const body = response.json as Record<string, unknown> | undefined;
  expect(body, where).toBeTypeOf('object');
  if (response.status >= 200 && response.status < 300) {
    expect(body!.success, where).toBe(true);
    expect(Object.keys(body!).sort(), where).toEqual(['data', 'success']);
    return;
  }
  expect(Object.keys(body!).sort(), where).toEqual(['error', 'success']);
  expect(body!.success, where).toBe(false);
  const error = body!.error as Record<string, unknown>;
  // Code and message always; reason, field and entryIndex where the problem has them; `details`
  // lists the problems when more than one is known (an array of objects with a message).
  expect(
    Object.keys(error).filter((key) => !ERROR_FACTS.has(key)),
    where,
  ).toEqual([]);
  expect(Object.keys(error), where).toEqual(expect.arrayContaining(['code', 'message']));
  if ('details' in error) expect(Array.isArray(error.details) && error.details.every((detail) => typeof detail?.message === 'string'), where).toBe(true);
  expect(typeof error.message, where).toBe('string');
  if ('reason' in error) expect(spec.errorReasons.has(error.reason as string), `${where}: reason not in ErrorReason`).toBe(true);
  if ('field' in error) expect(error.field, where).toEqual(expect.any(String));
  if ('entryIndex' in error) expect(Number.isInteger(error.entryIndex) && (error.entryIndex as number) >= 0, where).toBe(true);
  expect(spec.errorCodes.has(error.code as string), `${where}: code not in ErrorCode`).toBe(true);
  expect(STATUS_OF[error.code as keyof typeof STATUS_OF], `${where}: code and status disagree`).toBe(response.status);
}

/** The status must be one the spec lists for the operation (plus the documented global ones). */
export function expectDocumented(op: Operation, status: number, context: string, extra: number[] = []): void {
  const documented = [...op.statuses, ...extra];
  expect(documented, `${context}: ${op.operationId} answered ${status}, which its responses do not list`).toContain(status);
}

export interface StateSnapshot {
  balances: Array<{ id: string; balance: string; available: string }>;
  counts: Record<string, number>;
  requests: Array<{ id: string; status: string }>;
  payouts: Array<{ id: string; status: string }>;
  rates: Array<{ pair: string; rate: string }>;
  /** A digest of every beneficiary row: a refused update or deactivation changes none. */
  beneficiaries: string;
}

/** Tables a rejected request may legitimately write: the stored answer of an Idempotency-Key (its row, and its parts). */
const SNAPSHOT_IGNORED_TABLES = new Set(['idempotency_keys', 'schema_migrations']);
const snapshotQueries = new WeakMap<Database, Promise<string>>();

/**
 * Everything a rejected request must leave as it was, in one query: balance and available per
 * account currency, the row count of every table (so a table added later is watched too) and the
 * consumed fee estimates, the status of every request and payout, and the exchange rates.
 */
export async function snapshot(db: Database): Promise<StateSnapshot> {
  if (!snapshotQueries.has(db)) {
    snapshotQueries.set(
      db,
      db
        .query<{ table_name: string }>(
          "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name",
        )
        .then((tables) => {
          const counts = tables
            .map((t) => t.table_name)
            .filter((name) => !SNAPSHOT_IGNORED_TABLES.has(name))
            .map((name) => `'${name}', (SELECT count(*)::int FROM "${name}")`);
          counts.push(
            "'payroll_fee_estimates consumed', (SELECT count(*)::int FROM payroll_fee_estimates WHERE consumed_at IS NOT NULL)",
            "'payout_fee_estimates consumed', (SELECT count(*)::int FROM payout_fee_estimates WHERE consumed_at IS NOT NULL)",
          );
          return `SELECT json_build_object(
             'balances', (SELECT COALESCE(json_agg(json_build_object('id', id, 'balance', balance::text, 'available', available::text) ORDER BY id), '[]') FROM account_currencies),
             'counts', ${countsObject(counts)},
             'requests', (SELECT COALESCE(json_agg(json_build_object('id', id, 'status', status) ORDER BY id), '[]') FROM payroll_requests),
             'payouts', (SELECT COALESCE(json_agg(json_build_object('id', id, 'status', status) ORDER BY id), '[]') FROM payouts),
             'rates', (SELECT COALESCE(json_agg(json_build_object('pair', from_code || '/' || to_code, 'rate', rate::text) ORDER BY from_code, to_code), '[]') FROM exchange_rates),
             'beneficiaries', (SELECT md5(COALESCE(string_agg(b::text, ',' ORDER BY b.id), '')) FROM beneficiaries b)
           )::text AS state`;
        }),
    );
  }
  const [row] = await db.query<{ state: string }>(await snapshotQueries.get(db)!);
  return JSON.parse(row!.state) as StateSnapshot;
}

/**
 * The counts as one JSON object. A function takes at most 100 arguments in PostgreSQL and each
 * count is two (its name and its value): the tables are counted in parts of 40, merged as jsonb.
 */
function countsObject(counts: readonly string[]): string {
  const parts: string[] = [];
  for (let start = 0; start < counts.length; start += 40) parts.push(`jsonb_build_object(${counts.slice(start, start + 40).join(',\n')})`);
  return `(${parts.join(' || ')})`;
}

/**
 * The xmax of the current snapshot (one past the latest completed transaction id): it moves when a
 * transaction that wrote (and so was given an id) completes, committed or rolled back, in any
 * database of the cluster. Unchanged ⇒ nothing was written since, so the previous snapshot still
 * holds and the costlier full snapshot can be skipped; changed ⇒ take a full one.
 */
export async function writeMarker(db: Database): Promise<string> {
  const [row] = await db.query<{ xmax: string }>('SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS xmax');
  return row!.xmax;
}

/** Fills a path template: /v1/x/{id} with { id: 'raw text' } (values inserted as given). */
export function fillPath(template: string, values: Record<string, string>): string {
  return template.replace(/\{([^}]+)\}/g, (_match, name: string) => values[name] ?? '');
}
