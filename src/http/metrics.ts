import type { RequestHandler, Response } from 'express';
import { metrics, operationOf } from '../observability/telemetry.js';

const STARTED = Symbol('metrics: request started');
type Timed = Response & { [STARTED]?: number };

/**
 * Times every request and counts those in flight (mounted first, and only when metrics are on).
 * The duration is labelled with the spec's operationId, never the raw path, so that the number of
 * series stays bounded whatever paths clients send. `close` fires once per response, finished or
 * abandoned by the client. One listener shared by every response, which keeps its start on itself:
 * a request allocates no closure (`once` would wrap one more).
 */
export const httpMetrics: RequestHandler = (_req, res, next) => {
  (res as Timed)[STARTED] = performance.now();
  metrics.httpStarted();
  res.on('close', finished);
  next();
};

function finished(this: Timed): void {
  const seconds = (performance.now() - this[STARTED]!) / 1000;
  metrics.httpFinished(operationOf(this.req, this) ?? 'none', this.req.method, this.statusCode, seconds);
}
