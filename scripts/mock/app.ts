/**
 * The mock server of `npm run mock`: the bundled spec, validated the way the real service validates
 * it, answered with the spec's own examples. It holds no state and checks no rule beyond the spec.
 *
 * - A request that breaks the spec gets what the service would answer: the same validator
 *   (express-openapi-validator, same options) and the same error handler, so a bad body or parameter
 *   is 400 `VALIDATION_ERROR` naming the field, an unknown route 404, a wrong method 405, a wrong
 *   content type 415 — all in the `{ success: false, error }` envelope.
 * - Any bearer token is accepted; a missing one is 401 `UNAUTHORIZED`.
 * - Otherwise the operation's success example: its first 2xx response, its first named example.
 *   `Prefer: example=<name>` picks another example of the operation (an error example too, with its
 *   status); `Prefer: code=<status>` picks that status's first example. A name or status the
 *   operation has no example for is the client's mistake: 400 `VALIDATION_ERROR` listing the ones it has.
 * - The payroll CSV upload's query parameters are checked as the service checks them: required
 *   with a `text/csv` body, refused with a JSON one (the same functions).
 */
import { readFileSync } from 'node:fs';
import express, { type Express, type RequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import { refuseCsvQueryWithJson, requireCsvQuery } from '../../src/domain/payroll/payrollCsvQuery.js';
import { sendError } from '../../src/http/pipeline/envelope.js';
import { errorHandler, notFoundHandler } from '../../src/http/pipeline/errorHandler.js';
import { requestId } from '../../src/http/pipeline/requestContext.js';
import { createLogger } from '../../src/observability/logger.js';

interface Example {
  value?: unknown;
  $ref?: string;
}
interface ResponseObject {
  content?: Record<string, { example?: unknown; examples?: Record<string, Example> }>;
  $ref?: string;
}
interface Operation {
  operationId?: string;
  responses?: Record<string, ResponseObject>;
}
interface BundledSpec {
  paths?: Record<string, Record<string, Operation>>;
}
interface Answer {
  status: number;
  body?: unknown;
  /** The example's media type: JSON, or a file's (text/csv). */
  mediaType?: string;
}

/** Follows a local `$ref` ("#/components/examples/…") of the bundled spec. */
function deref<T extends { $ref?: string }>(spec: unknown, node: T): T {
  if (!node.$ref?.startsWith('#/')) return node;
  const pointer = node.$ref
    .slice(2)
    .split('/')
    .map((key) => key.replace(/~1/g, '/').replace(/~0/g, '~'));
  return deref(spec, pointer.reduce<unknown>((at, key) => (at as Record<string, unknown>)[key], spec) as T);
}

/**
 * Each operation's responses with their examples resolved, by operationId. (The validator's
 * copy of an operation, `req.openapi.schema`, has its examples stripped.)
 */
function responsesByOperation(spec: BundledSpec): Map<string, Record<string, ResponseObject>> {
  const byOperation = new Map<string, Record<string, ResponseObject>>();
  for (const item of Object.values(spec.paths ?? {})) {
    for (const operation of Object.values(item)) {
      if (!operation.operationId || !operation.responses) continue;
      const responses = Object.entries(operation.responses).map(([status, response]) => [status, deref(spec, response)] as const);
      byOperation.set(operation.operationId, Object.fromEntries(responses));
    }
  }
  return byOperation;
}

/** Every example of a response, by name (a lone `example` is named "example"), of its first media type (JSON, or a file's). */
function examplesOf(spec: BundledSpec, response: ResponseObject): { mediaType?: string; examples: [string, unknown][] } {
  const [mediaType, media] = Object.entries(response.content ?? {})[0] ?? [];
  if (!media) return { examples: [] };
  if (media.examples) return { mediaType, examples: Object.entries(media.examples).map(([name, example]) => [name, deref(spec, example).value]) };
  return { mediaType, examples: media.example === undefined ? [] : [['example', media.example]] };
}

/** The answer the `Prefer` header asks for, the success example when it asks nothing; undefined when there is none. */
function chooseAnswer(spec: BundledSpec, responses: Record<string, ResponseObject>, prefer: string | undefined): Answer | undefined {
  const statuses = Object.entries(responses).filter(([status]) => /^\d{3}$/.test(status));
  const wanted = Object.fromEntries((prefer ?? '').split(/[,;]/).map((part) => part.trim().split('=') as [string, string?]));
  const withBody = (status: string, response: ResponseObject, name?: string): Answer | undefined => {
    const { mediaType, examples } = examplesOf(spec, response);
    if (examples.length === 0) return response.content || name !== undefined ? undefined : { status: Number(status) };
    const example = name === undefined ? examples[0] : examples.find(([candidate]) => candidate === name);
    return example && { status: Number(status), body: example[1], ...(mediaType ? { mediaType } : {}) };
  };
  if (wanted.example) {
    for (const [status, response] of statuses) {
      const answer = withBody(status, response, wanted.example);
      if (answer) return answer;
    }
    return undefined;
  }
  const status = wanted.code ?? statuses.map(([code]) => code).find((code) => code.startsWith('2'));
  const response = statuses.find(([code]) => code === status)?.[1];
  return response && withBody(status!, response);
}

/** Answers a request the validator let through with an example of its operation. */
function answerFromExamples(spec: BundledSpec): RequestHandler {
  const byOperation = responsesByOperation(spec);
  return (req, res, next) => {
    const operationId = (req as { openapi?: { schema?: Operation } }).openapi?.schema?.operationId;
    if (!operationId) return next(); // no operation of the spec: the 404 below
    const prefer = req.header('Prefer');
    const answer = chooseAnswer(spec, byOperation.get(operationId) ?? {}, prefer);
    if (!answer) {
      const responses = byOperation.get(operationId) ?? {};
      const names = Object.values(responses).flatMap((response) => examplesOf(spec, response).examples.map(([name]) => name));
      const has = `its examples: ${names.join(', ') || 'none'}; its statuses: ${Object.keys(responses).join(', ')}`;
      if (prefer) return sendError(res, 'VALIDATION_ERROR', `header.Prefer: ${operationId} has no example matching "${prefer}" (${has})`, { field: 'Prefer' });
      return sendError(res, 'INTERNAL_ERROR', `The mock has no success example for ${operationId}`);
    }
    if (answer.body === undefined) return void res.status(answer.status).end();
    if (answer.mediaType && answer.mediaType !== 'application/json') return void res.status(answer.status).type(answer.mediaType).send(answer.body);
    res.status(answer.status).json(answer.body);
  };
}

/** The operations that take a payroll CSV file, with what the file needs in the query. */
const CSV_UPLOADS: Record<string, 'estimate' | 'create'> = { estimatePayrollFee: 'estimate', createPayrollRequest: 'create' };

/** The service's own check of the CSV upload's query parameters (src/domain/payroll/payrollCsvQuery.ts). */
const csvQueryChecks: RequestHandler = (req, _res, next) => {
  const operation = CSV_UPLOADS[(req as { openapi?: { schema?: Operation } }).openapi?.schema?.operationId ?? ''];
  if (!operation) return next();
  const query = req.query as Record<string, string | undefined>;
  try {
    if (req.is('text/csv')) requireCsvQuery(query, operation);
    else refuseCsvQueryWithJson(query);
    next();
  } catch (error) {
    next(error);
  }
};

/** The mock app on a bundled spec in JSON (dist/openapi.json, as `npm run bundle` writes it). */
export function createMockApp(specFile: string): Express {
  const spec = JSON.parse(readFileSync(specFile, 'utf8')) as BundledSpec;
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  app.set('etag', false);
  app.use(requestId);
  app.use(express.json({ limit: '2mb' }));
  app.use(express.text({ type: 'text/csv', limit: '2mb' }));
  app.use(
    OpenApiValidator.middleware({
      apiSpec: specFile,
      // As src/http/pipeline/app.ts: the same request checks, so the mock refuses exactly what the service refuses by its contract.
      validateRequests: { allowUnknownQueryParameters: false, coerceTypes: false },
      validateResponses: false,
      // Any bearer token will do: the validator has already refused a missing or non-Bearer header.
      validateSecurity: { handlers: { bearerAuth: () => true } },
      ajvFormats: { mode: 'full' },
    }),
  );
  app.use(csvQueryChecks);
  app.use(answerFromExamples(spec));
  app.use(notFoundHandler);
  app.use(errorHandler(createLogger('silent')));
  return app;
}
