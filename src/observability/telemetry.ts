/**
 * What the service tells an operator about itself: metrics (Prometheus, METRICS_PORT) and traces
 * (OpenTelemetry, OTEL_EXPORTER_OTLP_ENDPOINT). The code that does the work reports through the
 * two process-wide sinks below, which do nothing until the composition root installs a real one:
 * with both off, a report is a call to an empty function and neither prom-client nor the
 * OpenTelemetry SDK is ever loaded. This module imports nothing, so every layer may report.
 */

/** The money movements the worker executes (transfers of a payroll request, single payouts). */
export type MovementKind = 'PROCESSOR_INTERNAL_DEBIT' | 'PROCESSOR_TO_BANK' | 'BANK_TO_BENEFICIARY' | 'PAYOUT';

/** A movement's step as the metrics count it: handed to the rails, then settled one way or the other. */
export type MovementStep = 'INITIATED' | 'PROCESSING' | 'COMPLETED' | 'FAILED';

export interface Metrics {
  /** False for the no-op sink: callers may skip work done only to report (the HTTP middleware is not mounted). */
  readonly enabled: boolean;
  httpStarted(): void;
  /** One answered (or abandoned) request: its spec operation ("none" when refused before routing). */
  httpFinished(operationId: string, method: string, status: number, seconds: number): void;
  payrollTransition(from: string, to: string): void;
  /** `amount` is the decimal string of the movement, in its currency. */
  movement(kind: MovementKind, step: MovementStep, currencyCode: string, amount: string, failureReason?: string): void;
  /** Items claimed together by one worker pass (or sent in one batch). */
  batch(kind: string, size: number): void;
  /** The platform's FX result of one recorded exchange (a gain, or a loss when negative), in the payroll currency. */
  fxResult(currencyCode: string, amount: string): void;
  webhookAttempt(succeeded: boolean, retry: boolean): void;
  /** A transaction run again after a deadlock (40P01) or a serialization failure (40001). */
  transactionRetry(sqlState: string): void;
  /** 429 from the rate limiter: a verified user's budget, or a client address's. */
  rateLimited(scope: 'user' | 'address'): void;
  /** 429 from the per-customer cap on heavy operations. */
  heavyOperationRefused(): void;
  /** 503 from the per-customer bulkhead: a customer's operation waited too long for its lane. */
  customerWriteRefused(): void;
  /** A bank report contradicting a payout already settled (a rejection after an acceptance). */
  bankReportContradiction(): void;
  /** An exception nobody caught, or a rejection nobody handled: the process exits after it. */
  processFailure(kind: ProcessFailureKind): void;
  /** A poll of the rate feed that read it (whatever it refused of it). */
  rateFeedPolled(): void;
  /** A poll of the rate feed that failed, or one of its rates refused: why (unreachable, malformed, invalid_rate, jump, older). */
  rateFeedFailure(reason: string): void;
  /** A deadline of a payroll with a pay date noticed: `APPROACHING` or `MISSED`, by deadline (approveBy, quoteBy, acceptBy, fundBy). */
  payrollDeadline(deadline: string, kind: string): void;
}

/** The failures that end a process (Node's names for them). */
export type ProcessFailureKind = 'uncaughtException' | 'unhandledRejection';

const noop = (): void => undefined;

const NO_METRICS: Metrics = {
  enabled: false,
  httpStarted: noop,
  httpFinished: noop,
  payrollTransition: noop,
  movement: noop,
  batch: noop,
  fxResult: noop,
  webhookAttempt: noop,
  transactionRetry: noop,
  rateLimited: noop,
  heavyOperationRefused: noop,
  customerWriteRefused: noop,
  bankReportContradiction: noop,
  processFailure: noop,
  rateFeedPolled: noop,
  rateFeedFailure: noop,
  payrollDeadline: noop,
};

export interface Tracer {
  readonly enabled: boolean;
  /** Runs `work` inside a span named `name` (a child of the active span); the span ends when it settles. */
  span<T>(name: string, attributes: Record<string, string | number>, work: () => Promise<T>): Promise<T>;
  /** The active trace's id, for log lines; undefined when tracing is off. */
  traceId(): string | undefined;
}

const NO_TRACER: Tracer = {
  enabled: false,
  span: (_name, _attributes, work) => work(),
  traceId: () => undefined,
};

/** The process's metrics sink (a live binding: installMetrics replaces it for every importer). */
export let metrics: Metrics = NO_METRICS;
/** The process's tracer. */
export let tracer: Tracer = NO_TRACER;

export function installMetrics(sink: Metrics): void {
  metrics = sink;
}

export function installTracer(sink: Tracer): void {
  tracer = sink;
}

/**
 * The spec operation a request was routed to: the HTTP layer notes it in `res.locals.operationId`;
 * a request the validator refused (400) has it in `req.openapi`; one refused before routing (401
 * without a token, 429, an unknown path) has none. Read by the metrics and the tracing alike.
 */
export function operationOf(req: object, res: object): string | undefined {
  const noted = (res as { locals?: { operationId?: unknown } }).locals?.operationId;
  if (typeof noted === 'string') return noted;
  const routed = (req as { openapi?: { schema?: { operationId?: unknown } } }).openapi?.schema?.operationId;
  return typeof routed === 'string' ? routed : undefined;
}

/**
 * The route template a request matched (`/v1/customers/beneficiaries/{beneficiaryId}`), never its
 * path: set by the validator's routing (`req.openapi`), else by Express's own route.
 */
export function routeOf(req: object): string | undefined {
  const template = (req as { openapi?: { openApiRoute?: unknown } }).openapi?.openApiRoute;
  if (typeof template === 'string') return template;
  const { route, baseUrl } = req as { route?: { path?: unknown }; baseUrl?: unknown };
  return typeof route?.path === 'string' ? `${typeof baseUrl === 'string' ? baseUrl : ''}${route.path}` : undefined;
}
