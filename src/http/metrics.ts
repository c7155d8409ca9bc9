import type { RequestHandler } from 'express';
import { metrics, operationOf } from '../observability/telemetry.js';

/**
 * Times every request and counts those in flight (mounted first, and only when metrics are on).
 * The duration is labelled with the spec's operationId, never the raw path, so that the number of
 * series stays bounded whatever paths clients send. `close` fires once per response, finished or
 * abandoned by the client.
 */
export const httpMetrics: RequestHandler = (req, res, next) => {
  const started = process.hrtime.bigint();
  metrics.httpStarted();
  res.once('close', () => {
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    metrics.httpFinished(operationOf(req, res) ?? 'none', req.method, res.statusCode, seconds);
  });
  next();
};
