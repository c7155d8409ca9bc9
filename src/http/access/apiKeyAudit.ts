import type { RequestHandler } from 'express';
import type { UseCaseDeps } from '../../usecases/deps.js';
import { principalOf } from './auth.js';

/**
 * Every request an API key authenticated, audited once answered (whatever the answer, a 429 or a
 * 403 included): the key's id, the user it acts as, the request id, method, path and status.
 * Never the key itself, the query string or the body.
 */
export function auditApiKeyUse(deps: Pick<UseCaseDeps, 'apiKeyUsage' | 'clock'>): RequestHandler {
  return (req, res, next) => {
    const apiKeyId = principalOf(res)?.apiKeyId;
    const usage = deps.apiKeyUsage;
    if (usage && apiKeyId) {
      const at = deps.clock();
      const { method, path } = req;
      res.once('finish', () =>
        usage.record({
          apiKeyId,
          action: 'USED',
          at,
          userId: principalOf(res)?.userId ?? null,
          requestId: res.locals.requestId ?? null,
          method,
          path,
          statusCode: res.statusCode,
        }),
      );
    }
    next();
  };
}
