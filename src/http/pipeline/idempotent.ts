import type { Response } from 'express';
import { DomainError, validationError } from '../../domain/errors.js';
import type { UseCaseDeps } from '../../usecases/deps.js';
import { type IdempotentOutcome, type KeptOutcome, type OutcomeCodec, fingerprint, outcomeOf, runIdempotent } from '../../usecases/idempotency.js';
import { JsonText } from '../../usecases/answers/jsonText.js';
import { PackedJson } from '../../usecases/answers/packedJson.js';
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

/** A handler's success: its status and its envelope's data (a value, JSON text, or an answer held compressed). */
export interface SuccessResult {
  status: number;
  data: unknown;
}

/**
 * A refusal read back from a key: the domain error it was, with the answer exactly as it was first
 * sent (status and envelope), which a repeat gets again, whatever this release would say of it now.
 */
class ReplayedRefusal extends DomainError {
  constructor(readonly answer: ErrorResponse) {
    const { code, message, reason, field, entryIndex, details } = answer.body.error;
    super(code, message, {
      ...(reason && { reason }),
      ...(field !== undefined && { field }),
      ...(entryIndex !== undefined && { entryIndex }),
      ...(details && { details }),
    });
  }
}

const SUCCESS_HEAD = '{"success":true,"data":';

/**
 * How a key keeps an outcome, as every release has kept it: the answer's status and its envelope
 * as JSON text (or, for an answer held compressed, its data compressed in place of the text). A row written by an earlier
 * release therefore replays byte for byte, and one written now reads in an earlier release.
 */
const wireCodec: OutcomeCodec<SuccessResult> = {
  keep(outcome) {
    if (!outcome.ok) {
      const { status, body } = errorResponse(outcome.error);
      return { status, bodyText: JSON.stringify(body), answer: null };
    }
    const { status, data } = outcome.result;
    if (data instanceof PackedJson) return { status, bodyText: null, answer: data };
    // JSON text is kept as it was sent (JSON.stringify would parse it and write it again: other bytes).
    if (data instanceof JsonText) return { status, bodyText: `${SUCCESS_HEAD}${data.text}}`, answer: null };
    return { status, bodyText: JSON.stringify({ success: true, data }), answer: null };
  },
  replay({ status, bodyText, answer }: KeptOutcome): IdempotentOutcome<SuccessResult> {
    if (answer) return { ok: true, result: { status, data: answer } };
    const body = JSON.parse(bodyText!) as { success: true; data: unknown } | ErrorResponse['body'];
    if (!body.success) return { ok: false, error: new ReplayedRefusal({ status, body }) };
    // The kept envelope's own bytes again (what res.json wrote of a value, or the text as it was sent).
    const data = bodyText!.startsWith(SUCCESS_HEAD) && bodyText!.endsWith('}') ? new JsonText([bodyText!.slice(SUCCESS_HEAD.length, -1)]) : body.data;
    return { ok: true, result: { status, data } };
  },
};

/**
 * A state-changing POST: runs `handler` once per Idempotency-Key (when the client sends one) and
 * replays the kept outcome for repeats. With a key, the handler runs on `db`, a Database inside the
 * transaction that keeps its outcome (see runIdempotent). Domain errors are outcomes too, and are
 * kept; unexpected failures are not (the error handler answers 500; nothing was committed). A
 * success is sent by `sendSuccess`.
 */
export async function answerIdempotently(
  deps: Pick<UseCaseDeps, 'db' | 'clock' | 'config'>,
  request: IdempotentRequest,
  res: Response,
  handler: (db: UseCaseDeps['db']) => Promise<SuccessResult>,
  sendSuccess: (status: number, data: unknown) => Promise<void>,
): Promise<void> {
  const { key, userId, method, path, body, query } = request;
  // An empty or blank header is a client bug (an unset variable), not "no key": refused, not ignored.
  if (key !== undefined && key.trim() === '') throw validationError('header.Idempotency-Key must not be empty', { field: 'Idempotency-Key' });
  const outcome = key
    ? await runIdempotent(deps, { userId, key, requestHash: fingerprint(method, path, body, query) }, handler, wireCodec)
    : await outcomeOf(() => handler(deps.db));
  if (outcome.ok) return sendSuccess(outcome.result.status, outcome.result.data);
  const { error } = outcome;
  sendErrorResponse(res, error instanceof ReplayedRefusal ? error.answer : errorResponse(error));
}
