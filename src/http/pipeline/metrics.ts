import type { RequestHandler } from 'express';
import { metrics, operationOf } from '../../observability/telemetry.js';

/**
 * Times every request and counts those in flight (mounted first, and only when metrics are on).
 * The duration is labelled with the spec's operationId, never the raw path, so that the number of
 * series stays bounded whatever paths clients send. `close` fires once per response, finished or
 * abandoned by the client, so `on` is enough: `once` would wrap the listener in one more function,
 * and a start kept on the response would add a property to a large object; both cost more than this closure.
 */
export const httpMetrics: RequestHandler = (req, res, next) => {
  const started = performance.now();
  metrics.httpStarted();
  res.on('close', () => metrics.httpFinished(operationOf(req, res) ?? 'none', req.method, res.statusCode, (performance.now() - started) / 1000));
  next();
};
