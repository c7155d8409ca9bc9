/**
 * The spec's examples as cases to replay: every named request-body example of every operation, and
 * for an operation without a body, its parameter examples. Read from the bundled, dereferenced spec
 * (test/reliability/spec.ts), so that a new operation or example is replayed without a change here.
 *
 * Pairing: a request example named `…Request` documents the response example named `…Response` (the
 * same name with `Request` swapped for `Response`), and so its status. An example may name its
 * response example explicitly with `x-response-example` (openapi/docs/examples.md). An operation
 * without a request body is expected to answer the status of its success response example.
 */
import { readFileSync } from 'node:fs';
import { loadSpec } from '../../reliability/spec.js';

export const DEMO_WORLD = JSON.parse(readFileSync(new URL('../../../worlds/demo.json', import.meta.url), 'utf8')) as DemoWorld;

export interface DemoWorld {
  users: Array<{ id: string; role: string; permissions?: string[]; customerId?: string }>;
  [key: string]: unknown;
}

type Example = { value: unknown; 'x-response-example'?: string };
type Media = { schema?: unknown; examples?: Record<string, Example> };
type RawParameter = {
  name: string;
  in: string;
  required?: boolean;
  example?: unknown;
  /** Named examples: one named after a request example goes with that example only (the CSV upload's query). */
  examples?: Record<string, { value?: unknown }>;
  schema?: { type?: string };
};
type RawOperation = {
  operationId: string;
  tags?: string[];
  security?: unknown[];
  parameters?: RawParameter[];
  requestBody?: { content: Record<string, Media> };
  responses: Record<string, { content?: Record<string, Media> }>;
};
type RawSpec = { security?: unknown[]; paths: Record<string, Record<string, unknown> & { parameters?: RawParameter[] }> };

export interface ResponseExample {
  status: number;
  contentType: string;
  name: string;
  value: unknown;
  schema: unknown;
}

export interface ExampleCase {
  operationId: string;
  method: string;
  path: string;
  role: 'public' | 'customer' | 'admin';
  /** The request example's name, or the operationId for an operation replayed with its parameters only. */
  name: string;
  /** path and query values from the parameters' examples (arrays for exploded query parameters). */
  path_: Record<string, string>;
  query: Record<string, string | string[]>;
  /** Parameters the spec requires that have no example (a setup step must supply them). */
  missing: string[];
  idempotent: boolean;
  body?: { contentType: string; value: unknown };
  /** The response example the answer must match in status, undefined when none pairs (a failure). */
  expected?: ResponseExample;
  /** Sent as Accept: the content type of the expected response example. */
  accept: string;
}

export interface ExampleSpec {
  cases: ExampleCase[];
  /** Every response example of every operation, to validate against its schema. */
  responseExamples: Array<ResponseExample & { operationId: string }>;
  /** "operationId content-type": request bodies without a named example. */
  bodiesWithoutExamples: string[];
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

export async function loadExampleSpec(): Promise<ExampleSpec> {
  const raw = (await loadSpec()).raw as unknown as RawSpec;
  const spec: ExampleSpec = { cases: [], responseExamples: [], bodiesWithoutExamples: [] };
  for (const [path, item] of Object.entries(raw.paths)) {
    for (const method of METHODS) {
      const op = item[method] as RawOperation | undefined;
      if (op) addOperation(spec, raw, path, method, [...(item.parameters ?? []), ...(op.parameters ?? [])], op);
    }
  }
  return spec;
}

function addOperation(spec: ExampleSpec, raw: RawSpec, path: string, method: string, parameters: RawParameter[], op: RawOperation): void {
  const responses = responseExamplesOf(op);
  spec.responseExamples.push(...responses.map((example) => ({ ...example, operationId: op.operationId })));
  const security = op.security ?? raw.security ?? [];
  const base = {
    operationId: op.operationId,
    method,
    path,
    role: security.length === 0 ? ('public' as const) : op.tags?.includes('Admin') ? ('admin' as const) : ('customer' as const),
    idempotent: parameters.some((parameter) => parameter.in === 'header' && parameter.name === 'Idempotency-Key'),
    ...parameterValues(parameters),
  };
  const success = responses.find((example) => example.status < 300);
  if (!op.requestBody) {
    spec.cases.push({ ...base, name: op.operationId, expected: success, accept: success?.contentType ?? 'application/json' });
    return;
  }
  for (const [contentType, media] of Object.entries(op.requestBody.content)) {
    const examples = Object.entries(media.examples ?? {});
    if (examples.length === 0) spec.bodiesWithoutExamples.push(`${op.operationId} ${contentType}`);
    for (const [name, example] of examples) {
      const responseName = example['x-response-example'] ?? name.replace(/Request$/, 'Response');
      const expected = responses.find((candidate) => candidate.name === responseName);
      const query = withoutBodyFields(parameterValues(parameters, name).query, contentType, media.schema);
      spec.cases.push({ ...base, query, name, body: { contentType, value: example.value }, expected, accept: expected?.contentType ?? 'application/json' });
    }
  }
}

/** A query parameter that a JSON body carries as a field (the CSV upload's account ids) is for the CSV body only. */
function withoutBodyFields(query: ExampleCase['query'], contentType: string, schema: unknown): ExampleCase['query'] {
  if (contentType !== 'application/json') return query;
  const fields = new Set(Object.keys((schema as { properties?: object } | undefined)?.properties ?? {}));
  return Object.fromEntries(Object.entries(query).filter(([name]) => !fields.has(name)));
}

function responseExamplesOf(op: RawOperation): ResponseExample[] {
  const found: ResponseExample[] = [];
  for (const [status, response] of Object.entries(op.responses)) {
    for (const [contentType, media] of Object.entries(response.content ?? {})) {
      for (const [name, example] of Object.entries(media.examples ?? {})) {
        found.push({ status: Number(status), contentType, name, value: example.value, schema: media.schema });
      }
    }
  }
  return found;
}

/**
 * Path and query values from the parameters' examples: a parameter's `example`, or its named example
 * of the request example `exampleName` (so the CSV upload's query goes with the CSV examples only).
 * A later parameter of the same name (the operation's own) overrides an earlier one (the path's).
 */
function parameterValues(parameters: RawParameter[], exampleName?: string): Pick<ExampleCase, 'path_' | 'query' | 'missing'> {
  const values: Pick<ExampleCase, 'path_' | 'query' | 'missing'> = { path_: {}, query: {}, missing: [] };
  for (const parameter of parameters) {
    if (parameter.in === 'header') continue;
    const example = (exampleName === undefined ? undefined : parameter.examples?.[exampleName]?.value) ?? parameter.example;
    if (example === undefined) {
      if (parameter.required) values.missing.push(`${parameter.in}.${parameter.name}`);
      continue;
    }
    if (parameter.in === 'path') values.path_[parameter.name] = String(example);
    else values.query[parameter.name] = Array.isArray(example) ? example.map(String) : String(example);
  }
  return values;
}
