import type { Response } from 'express';
import { DomainError } from '../domain/errors.js';
import type { UseCaseDeps } from '../usecases/deps.js';
import { type StoredResponse, fingerprint, runIdempotent } from '../usecases/idempotency.js';
import { type ErrorCode, STATUS_OF, sendError } from './envelope.js';

/** What identifies a repeat: the caller's key, and what the request asked for. */
export interface IdempotentRequest {
  /** The Idempotency-Key header, when the client sent one. */
  key: string | undefined;
  userId: string;
  method: string;
  path: string;
  body: unknown;
}

interface StoredBody {
  success: boolean;
  error?: { code: ErrorCode; message: string };
}

/**
 * A state-changing POST: runs `handler` once per Idempotency-Key (when the client sends one) and
 * replays the stored status and body for repeats. Domain errors are answers too, and are stored;
 * unexpected failures are not (the error handler answers 500 and the key is released).
 */
export async function answerIdempotently(
  deps: Pick<UseCaseDeps, 'db' | 'clock'>,
  request: IdempotentRequest,
  res: Response,
  handler: () => Promise<{ status: number; data: unknown }>,
): Promise<void> {
  const run = async (): Promise<StoredResponse> => {
    try {
      const { status, data } = await handler();
      return { status, body: { success: true, data } };
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      return { status: error.httpStatus ?? STATUS_OF[error.code], body: { success: false, error: { code: error.code, message: error.message } } };
    }
  };
  const { key, userId, method, path, body } = request;
  const response = key ? await runIdempotent(deps.db, deps.clock, { userId, key, requestHash: fingerprint(method, path, body) }, run) : await run();
  const stored = response.body as StoredBody;
  if (stored.success) res.status(response.status).json(stored);
  else sendError(res, stored.error!.code, stored.error!.message, response.status);
}
