import type { Request, RequestHandler, Response } from 'express';
import { DomainError } from '../domain/errors.js';
import type { Database } from '../store/db.js';
import { type StoredResponse, fingerprint, runIdempotent } from '../usecases/idempotency.js';
import type { Principal } from '../usecases/principal.js';
import { STATUS_OF, sendError } from './envelope.js';

export interface Created {
  status: number;
  data: unknown;
}

/**
 * A state-changing POST: runs `handler` once per Idempotency-Key (when the client sends one) and
 * replays the stored status and body for repeats. Domain errors are answers too, and are stored;
 * unexpected failures are not (the error handler answers 500 and the key is released).
 */
export function idempotent(db: Database, clock: () => Date, handler: (req: Request, res: Response) => Promise<Created>): RequestHandler {
  return async (req, res) => {
    const run = async (): Promise<StoredResponse> => {
      try {
        const { status, data } = await handler(req, res);
        return { status, body: { success: true, data } };
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        return { status: STATUS_OF[error.code], body: { success: false, error: { code: error.code, message: error.message } } };
      }
    };
    const key = req.header('Idempotency-Key');
    const caller = res.locals.principal as Principal;
    const response = key
      ? await runIdempotent(db, clock, { userId: caller.userId, key, requestHash: fingerprint(req.method, req.path, req.body) }, run)
      : await run();
    const body = response.body as { success: boolean; error?: { code: keyof typeof STATUS_OF; message: string } };
    if (body.success) res.status(response.status).json(body);
    else sendError(res, body.error!.code, body.error!.message, response.status);
  };
}
