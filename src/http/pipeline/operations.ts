/**
 * The server stubs, derived from the spec: `generated/api.d.ts` (openapi-typescript) gives every
 * operation's parameters, body and responses; these types turn them into the signature of the one
 * handler each operation needs. A spec change that adds an operation, a parameter or a field, or
 * drops a status, breaks the build where a handler no longer fits.
 */
import type { operations, paths } from '../../../generated/api.js';
import type { JsonStream } from '../../usecases/answers/jsonStream.js';
import type { JsonText } from '../../usecases/answers/jsonText.js';
import type { Principal } from '../../usecases/access/principal.js';
import type { PackedJson } from '../../usecases/answers/packedJson.js';

type Method = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace';

/** Every operation the spec serves under `paths`; its `webhooks` are operations too, but we send those. */
type PathOperation = { [P in keyof paths]: { [M in Method]: NonNullable<paths[P][M]> }[Method] }[keyof paths];

type IsPathOperation<Op> = PathOperation extends infer P ? (P extends unknown ? ([Op] extends [P] ? ([P] extends [Op] ? true : never) : never) : never) : never;

/** The operationIds a handler must exist for. */
export type OperationId = { [K in keyof operations]: true extends IsPathOperation<operations[K]> ? K : never }[keyof operations];

type Op<K extends OperationId> = operations[K];
type Responses<K extends OperationId> = Op<K>['responses'];
/** An empty object: the operation declares no path or query parameters. */
type None = Record<string, never>;

/** Path parameters, as the validator checked them against the spec. */
export type PathParams<K extends OperationId> = Op<K>['parameters'] extends { path: infer P } ? P : None;

/** Query parameters (all optional ones may be absent). */
export type QueryParams<K extends OperationId> = [NonNullable<Op<K>['parameters']['query']>] extends [never] ? None : NonNullable<Op<K>['parameters']['query']>;

type JsonContent<R> = R extends { content: { 'application/json': infer B } } ? B : never;
type CsvContent<R> = R extends { content: { 'text/csv': infer B } } ? B : never;

/**
 * The body: JSON, or the text of a CSV file where the operation takes `text/csv`; `undefined`
 * when the operation takes none (or when an optional one was not sent).
 */
export type RequestBody<K extends OperationId> =
  JsonContent<Op<K>['requestBody']> | CsvContent<Op<K>['requestBody']> | (undefined extends Op<K>['requestBody'] ? undefined : never);

type SuccessStatus<K extends OperationId> = Extract<keyof Responses<K>, 200 | 201 | 202 | 203 | 204 | 205 | 206>;

type Data<R> = JsonContent<R> extends { data: infer D } ? D : never;

/** A success response the spec also offers as `text/csv` may be answered with CSV text instead of data. */
type CsvResult<R, S> = R extends { content: { 'text/csv': string } } ? { status: S; csv: string; filename?: string } : never;

/**
 * What a handler answers: one of the operation's 2xx statuses and the `data` of that response's
 * envelope, as a value, as JSON text already built (sent as it is), or as JSON text
 * held compressed (PackedJson), or JSON text read page by page as it is sent (JsonStream).
 */
type Result<K extends OperationId> = {
  [S in SuccessStatus<K>]: { status: S; data: Data<Responses<K>[S]> | PreparedJson<Data<Responses<K>[S]>> } | CsvResult<Responses<K>[S], S>;
}[SuccessStatus<K>];

type PreparedJson<D> = JsonText<D> | PackedJson<D> | JsonStream<D>;

/**
 * An operation that may answer 401 runs for an authenticated caller (the spec's bearerAuth); one
 * without (`security: []`, the probes) has no caller. The router checks at start-up that the
 * spec's security agrees with this.
 */
export type Caller<K extends OperationId> = 401 extends keyof Responses<K> ? Principal : undefined;

interface HandlerInput<K extends OperationId> {
  params: PathParams<K>;
  query: QueryParams<K>;
  body: RequestBody<K>;
  caller: Caller<K>;
  /**
   * The media type of the answer, negotiated from the Accept header among those the operation's
   * success responses offer (`application/json` unless the spec offers more and the client prefers one).
   */
  mediaType: string;
}

/** The stub of one operation: validated input in, a status and data the spec allows out. */
export type Handler<K extends OperationId> = (input: HandlerInput<K>) => Promise<Result<K>>;

/** One handler per operationId: `tsc` fails when the spec has an operation this table lacks. */
export type Handlers = { [K in OperationId]: Handler<K> };
