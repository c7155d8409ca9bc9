import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import helmet from 'helmet';

type HeaderValue = number | string | readonly string[];

/**
 * helmet's security headers (its defaults), worked out once at start-up: with the defaults they
 * depend on no request, yet helmet's chain of a dozen middlewares ran on every request to set the
 * same values. The headers are recorded from helmet itself, so they stay exactly helmet's.
 */
export function securityHeaders(): RequestHandler {
  const headers = new Map<string, HeaderValue>();
  const recorder = {
    setHeader: (name: string, value: HeaderValue) => headers.set(name, value),
    removeHeader: (name: string) => headers.delete(name),
  };
  let finished = false;
  helmet()({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error instanceof Error ? error : new Error(String(error));
    finished = true;
  });
  // helmet's defaults finish synchronously; anything else would mean headers that depend on the request.
  if (!finished) throw new Error('helmet did not set its headers synchronously');
  const entries = [...headers];
  return (_req, res, next) => {
    for (const [name, value] of entries) res.setHeader(name, value);
    next();
  };
}
