import type { Response } from 'express';
import { DomainError, validationError } from '../domain/errors.js';
import type { UseCaseDeps } from '../usecases/deps.js';
import { type StoredResponse, fingerprint, runIdempotent } from '../usecases/idempotency.js';
import { type ErrorResponse, errorResponse, sendErrorResponse } from './envelope.js';

/** What identifies a repeat: the caller's key, and what the request asked for. */
export interface IdempotentRequest {
  /** The Idempotency-Key header, when the client sent one. */
  key: string | undefined;
  userId: string;
  method: string;
  path: string;
  body: unknown;
  /** The query: part of what a request asks for (a CSV body's account currencies and feeHash). */
  query: Record<string, unknown>;
}

/** The body runIdempotent stores beside the status: a success's envelope, or an error's. */
type StoredBody = { success: true; data: unknown } | ErrorResponse['body'];

/**
 * A state-changing POST: runs `handler` once per Idempotency-Key (when the client sends one) and
 * replays the stored status and body for repeats. With a key, the handler runs on `db`, a Database
 * inside the transaction that stores its answer (see runIdempotent). Domain errors are answers too,
 * and are stored; unexpected failures are not (the error handler answers 500; nothing was committed).
 * A success is sent by `sendSuccess`, told whether its data is kept for the key (a stored answer
 * then stays for the repeats; without a key it is read once).
 */
export async function answerIdempotently(
  deps: Pick<UseCaseDeps, 'db' | 'clock' | 'config'>,
  request: IdempotentRequest,
  res: Response,
  handler: (db: UseCaseDeps['db']) => Promise<{ status: number; data: unknown }>,
  sendSuccess: (status: number, data: unknown, kept: boolean) => Promise<void>,
): Promise<void> {
  const { key, userId, method, path, body, query } = request;
  // An empty or blank header is a client bug (an unset variable), not "no key": refused, not ignored.
  if (key !== undefined && key.trim() === '') throw validationError('header.Idempotency-Key must not be empty');
  const run = async (db: UseCaseDeps['db']): Promise<StoredResponse> => {
    try {
      const { status, data } = await handler(db);
      return { status, body: { success: true, data } };
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      return errorResponse(error);
    }
  };
  const response = key ? await runIdempotent(deps, { userId, key, requestHash: fingerprint(method, path, body, query) }, run) : await run(deps.db);
  const stored = response.body as StoredBody;
  if (stored.success) await sendSuccess(response.status, stored.data, key !== undefined);
  else sendErrorResponse(res, { status: response.status, body: stored });
}
