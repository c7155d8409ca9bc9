import type { Application, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { tracer } from '../../observability/telemetry.js';
import type { UseCaseDeps } from '../../usecases/deps.js';
import { JsonStream } from '../../usecases/answers/jsonStream.js';
import { PackedJson } from '../../usecases/answers/packedJson.js';
import { sendData, streamData } from './envelope.js';
import type { CustomerBulkhead } from './customerBulkhead.js';
import type { HeavyOperationGate } from './heavyOperations.js';
import { answerIdempotently } from './idempotent.js';
import { type InputTraits, refuseOutsideContract } from './strictRequest.js';
import type { Locals } from './locals.js';
import type { Caller, Handler, Handlers, OperationId, PathParams, QueryParams, RequestBody } from './operations.js';
import { type ApiDoc, type Method, type OperationObject, type PathItemObject, METHODS, type SpecRouter } from './specRoutes.js';

export interface SendOptions {
  /** The response validator is on: JSON text from a handler is parsed so that it can be checked. */
  validateResponses: boolean;
}

/** What the spec says about one operation beyond its types. */
interface OperationTraits extends InputTraits {
  /** Runs for a caller authenticated by bearerAuth (the spec's `security`, global or its own). */
  secured: boolean;
  /** Takes an Idempotency-Key header: answers are stored and replayed. */
  idempotent: boolean;
  /** The media types of its success responses, JSON first: more than one when it also answers CSV. */
  mediaTypes: string[];
}

/** The handler table on some deps: the app's own, or those of one idempotent request's transaction. */
export type HandlersOn = (deps: UseCaseDeps) => Handlers;

/** What one app's operations run with: its handler table on its deps, its cap of heavy operations, its logger. */
export interface AppOperations {
  handlersOn: HandlersOn;
  /** handlersOn(deps), made once at start-up. */
  handlers: Handlers;
  deps: UseCaseDeps;
  gate?: HeavyOperationGate | undefined;
  /** The per-customer lanes of the operations that change a customer's rows. */
  bulkhead?: CustomerBulkhead | undefined;
  /** Where the validator's bearerAuth handler logs an authentication that failed unexpectedly. */
  logger: Logger;
}

const APP_OPERATIONS = 'payrollOperations';

/**
 * Keeps the app's operations in its `app.locals`. The validator and the router it mounts are
 * compiled once per process and shared by every app the process builds (see contractValidator),
 * so a request finds its own app's handlers and deps there, through `req.app`.
 */
export function attachOperations(app: Application, operations: AppOperations): void {
  app.locals[APP_OPERATIONS] = operations;
}

/** The operations of the app serving a request, `req.app` (attachOperations). */
export function operationsOf(app: Application): AppOperations {
  const operations = app.locals[APP_OPERATIONS] as AppOperations | undefined;
  if (!operations) throw new Error('the app serving this request has no operations attached (attachOperations)');
  return operations;
}

/** The handler of each operation of the spec, by method, per path of the spec. */
export type BoundOperations = Map<string, Partial<Record<Method, RequestHandler>>>;

/**
 * Binds the handler table to the spec's operations: each path and method of the spec gets the
 * handler of its operationId, which must be one of `table`'s (every app's table is allHandlers's),
 * with what the spec says of the operation (its traits). A path is written once, in the spec.
 * Each request runs the handler of the app serving it (operationsOf). Throws, before any request
 * is served, for an operation without a handler or with traits the types do not expect.
 */
export function bindOperations(table: Handlers, apiDoc: ApiDoc, router: SpecRouter, options: SendOptions = { validateResponses: false }): BoundOperations {
  const bound: BoundOperations = new Map();
  for (const { path, pathItem } of router.routes) {
    const byMethod: Partial<Record<Method, RequestHandler>> = {};
    for (const method of METHODS) {
      const operation = pathItem[method];
      if (!operation) continue;
      const where = `${method.toUpperCase()} ${path}`;
      const id = operation.operationId;
      if (!id || !isOperationId(table, id)) throw new Error(`no handler for ${where} (operationId ${id ?? 'missing'})`);
      byMethod[method] = bind(id, traitsOf(apiDoc, pathItem, operation, where), options) as unknown as RequestHandler;
    }
    bound.set(path, byMethod);
  }
  return bound;
}

function isOperationId(handlers: Handlers, id: string): id is OperationId {
  return Object.hasOwn(handlers, id);
}

/**
 * Reads security and idempotency from the spec, and checks them against what the types assume:
 * `Caller` gives a principal exactly to the operations that may answer 401, and an idempotency
 * key is kept per user, so it needs a caller.
 */
function traitsOf(apiDoc: ApiDoc, pathItem: PathItemObject, operation: OperationObject, where: string): OperationTraits {
  const secured = (operation.security ?? apiDoc.security ?? []).length > 0;
  if (secured !== '401' in (operation.responses ?? {})) throw new Error(`${where}: a secured operation must list 401, and only a secured one`);
  const parameters = [...(pathItem.parameters ?? []), ...(operation.parameters ?? [])];
  const idempotent = parameters.some((parameter) => 'in' in parameter && parameter.in === 'header' && parameter.name.toLowerCase() === 'idempotency-key');
  if (idempotent && !secured) throw new Error(`${where}: an Idempotency-Key is kept per user; the operation needs security`);
  const success = Object.entries(operation.responses ?? {}).filter(([status]) => status.startsWith('2'));
  const offered = success.flatMap(([, response]) => ('content' in response ? Object.keys(response.content ?? {}) : []));
  const mediaTypes = [...new Set(['application/json', ...offered])];
  const integerQuery = parameters.flatMap((parameter) =>
    'in' in parameter && parameter.in === 'query' && parameter.schema && 'type' in parameter.schema && parameter.schema.type === 'integer'
      ? [parameter.name]
      : [],
  );
  const refusesBody = !operation.requestBody && '415' in (operation.responses ?? {});
  return { secured, idempotent, mediaTypes, integerQuery, refusesBody };
}

/** What any handler answers, seen from the router: data (or JSON text), or CSV text. */
type SuccessAnswer = { status: number; data: unknown } | CsvAnswer;
type CsvAnswer = { status: number; csv: string; filename?: string | undefined };

/**
 * A success's data: an answer held compressed or a request read while it is sent is streamed (read
 * whole and parsed only for the response validator, which checks what passes through res.json);
 * anything else is sent by sendData.
 */
async function sendSuccess(res: Response, answer: { status: number; data: unknown }, options: SendOptions): Promise<void> {
  const { status, data } = answer;
  if (data instanceof JsonStream) return sendStream(res, status, data, options);
  if (!(data instanceof PackedJson)) return sendData(res, status, data, options.validateResponses);
  if (options.validateResponses) return sendData(res, status, await data.parse());
  await streamData(res, status, data.bytes, data.text());
}

/**
 * JSON read page by page while it is sent (streamData); read whole and parsed only for the
 * response validator.
 */
async function sendStream(res: Response, status: number, data: JsonStream<unknown>, options: SendOptions): Promise<void> {
  if (options.validateResponses) return sendData(res, status, JSON.parse(await data.text()));
  await data.send((parts) => streamData(res, status, null, parts));
}

/** A CSV answer, saved under its file name by a browser when it has one. */
function sendCsv(res: Response, { status, csv, filename }: CsvAnswer): void {
  if (filename) res.setHeader('Content-Disposition', `attachment; filename="${filename}"`);
  res.status(status).type('text/csv; charset=utf-8').send(csv);
}

/**
 * The Express handler of one operation. The validator has checked params, query and body against
 * the spec before this runs, which is what Express's typed request (its generic parameters) states.
 * With an Idempotency-Key, the handler runs on deps whose database is the transaction that also
 * stores its answer.
 */
function bind<K extends OperationId>(
  id: K,
  traits: OperationTraits,
  options: SendOptions,
): RequestHandler<PathParams<K>, unknown, RequestBody<K>, QueryParams<K>, Locals> {
  return async (req, res) => {
    const { handlers, handlersOn, deps, gate, bulkhead } = operationsOf(req.app);
    // For the metrics and the server span's name (operationOf).
    res.locals.operationId = id;
    refuseOutsideContract(req, traits);
    const handler: Handler<K> = handlers[id];
    // Set by the bearerAuth security handler, for exactly the secured operations (see traitsOf).
    const { principal } = res.locals;
    if (traits.secured && !principal) throw new Error(`operation ${id} reached without an authenticated caller`);
    // Caller<K> is a Principal exactly for the secured operations, which were just checked to have one.
    const caller = principal as Caller<K>;
    // With one media type there is nothing to negotiate; else the client's preference, JSON on a tie or none.
    const mediaType = traits.mediaTypes.length === 1 ? traits.mediaTypes[0]! : req.accepts(traits.mediaTypes) || traits.mediaTypes[0]!;
    const input = { params: req.params, query: req.query, body: req.body, caller, mediaType };
    const answer = async () => {
      if (!traits.idempotent || !principal) {
        const result: SuccessAnswer = await handler(input);
        // CSV is sent past the response validator (it checks only what passes through res.json).
        if ('csv' in result) return sendCsv(res, result);
        return sendSuccess(res, { status: result.status, data: result.data }, options);
      }
      const request = { key: req.header('Idempotency-Key'), userId: principal.userId, method: req.method, path: req.path, body: req.body, query: req.query };
      // A kept answer is a value, JSON text (kept as it is, so that a repeat gets the same bytes) or a PackedJson.
      const send = (status: number, data: unknown) => sendSuccess(res, { status, data }, options);
      await answerIdempotently(
        deps,
        request,
        res,
        async (db) => {
          // Without a key it runs on deps' own database: the handler bound at start-up, not all
          // handlers made anew for this request (that showed in the server's profile under the estimate load).
          const onDb: Handler<K> = db === deps.db ? handler : handlersOn({ ...deps, db })[id];
          const result: SuccessAnswer = await onDb(input);
          if ('csv' in result) throw new Error(`operation ${id}: an idempotent answer is stored as JSON, not CSV`);
          if (result.data instanceof JsonStream) throw new Error(`operation ${id}: an idempotent answer is stored, not streamed`);
          return { status: result.status, data: result.data };
        },
        send,
      );
    };
    // The use case's span (a child of the request's): the SQL it runs nests under it.
    const traced = () => tracer.span(`usecase ${id}`, { 'payroll.operation_id': id }, answer);
    // The idempotent operations are the ones that change (and lock) the customer's rows.
    const laned = () => (bulkhead && traits.idempotent ? bulkhead.run(principal?.customerId, res, traced) : traced());
    await (gate ? gate.run(principal, req.body, res, laned) : laned());
  };
}
