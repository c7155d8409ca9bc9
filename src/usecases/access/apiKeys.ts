import { randomUUID } from 'node:crypto';
import type { components } from '../../../generated/api.js';
import { type ApiKeyMode, apiKeyMatches, apiKeyPublicId, newApiKey } from '../../domain/access/apiKeys.js';
import { type ErrorReason, forbidden, notFound, validationError } from '../../domain/errors.js';
import {
  type ApiKeyRecord,
  appendApiKeyAudit,
  countActiveApiKeys,
  findApiKey,
  findApiKeyCredential,
  insertApiKey,
  listApiKeys,
  revokeApiKeyRow,
} from '../../store/access/apiKeys.js';
import { type CreatedPosition, createdPosition, cursorCodec, ownListCursor } from '../answers/cursor.js';
import type { UseCaseDeps } from '../deps.js';
import { type Principal, findPrincipal, requireCustomer } from './principal.js';

type Schemas = components['schemas'];

/** The most keys that may authenticate at once for one customer. */
const MAX_ACTIVE_KEYS = 20;
/** A page of keys when the caller names no `limit`: the most the list answered before it took one. */
const DEFAULT_PAGE = 100;
const keyCursor = cursorCodec<CreatedPosition>(ownListCursor('listApiKeys', createdPosition));

/** Key management needs a user's own token: a leaked key must not mint or hide other keys. */
function requireUserToken(caller: Principal): string {
  const customerId = requireCustomer(caller);
  if (caller.apiKeyId) throw forbidden('API keys are managed with a user access token, not with an API key', 'API_KEY_NOT_ALLOWED');
  return customerId;
}

export async function createApiKey(deps: UseCaseDeps, caller: Principal, body: Schemas['CreateApiKeyRequest']): Promise<Schemas['ApiKeyWithSecret']> {
  const customerId = requireUserToken(caller);
  const now = deps.clock();
  const expiresAt = body.expiresAt === undefined ? null : new Date(body.expiresAt);
  if (expiresAt && expiresAt <= now) throw validationError('body.expiresAt must be in the future', { field: '/expiresAt' });
  const mode: ApiKeyMode = deps.config.nodeEnv === 'production' ? 'live' : 'test';
  const key = newApiKey(mode);
  return deps.db.transaction(async (tx) => {
    if ((await countActiveApiKeys(tx, customerId, now)) >= MAX_ACTIVE_KEYS) {
      throw validationError(`A customer may hold at most ${MAX_ACTIVE_KEYS} active API keys: revoke one first`, { reason: 'API_KEY_LIMIT' });
    }
    const record = await insertApiKey(tx, {
      id: randomUUID(),
      customerId,
      userId: caller.userId,
      name: body.name,
      publicId: key.publicId,
      prefix: key.prefix,
      secretHash: key.secretHash,
      createdAt: now,
      expiresAt,
    });
    await appendApiKeyAudit(tx, [auditOf(record.id, 'CREATED', now, caller.userId)]);
    return { ...toApiKey(record), lastUsedAt: null, revokedAt: null, secret: key.secret };
  });
}

/** A page of the customer's keys, newest first, continued with `cursor` like every list. */
export async function listCustomerApiKeys(
  deps: UseCaseDeps,
  caller: Principal,
  query: { limit?: number; cursor?: string } = {},
): Promise<{ items: Schemas['ApiKey'][]; nextCursor: string | null }> {
  const customerId = requireUserToken(caller);
  const limit = query.limit ?? DEFAULT_PAGE;
  const after = query.cursor ? keyCursor.decode(query.cursor, undefined) : null;
  // This instance's latest uses first, so that lastUsedAt is as fresh as this instance knows it.
  await deps.apiKeyUsage?.flush();
  const rows = await deps.db.transaction((tx) => listApiKeys(tx, customerId, { after, limit: limit + 1 }));
  const last = rows.length > limit ? rows[limit - 1] : undefined;
  return { items: rows.slice(0, limit).map(toApiKey), nextCursor: last ? keyCursor.encode(last, undefined) : null };
}

export async function revokeApiKey(deps: UseCaseDeps, caller: Principal, apiKeyId: string): Promise<Schemas['ApiKey']> {
  const customerId = requireUserToken(caller);
  return deps.db.transaction(async (tx) => {
    const key = await findApiKey(tx, apiKeyId);
    if (!key || key.customerId !== customerId) throw notFound(`API key ${apiKeyId} not found`);
    if (key.revokedAt) return toApiKey(key);
    const now = deps.clock();
    const revoked = await revokeApiKeyRow(tx, key.id, now);
    await appendApiKeyAudit(tx, [auditOf(key.id, 'REVOKED', now, caller.userId)]);
    return toApiKey(revoked);
  });
}

export type ApiKeyAuthentication = { principal: Principal } | { reason: ErrorReason; message: string };

const INVALID_KEY = { reason: 'TOKEN_INVALID', message: 'The API key is invalid' } as const;

/**
 * The caller an API key stands for: its customer, as the user who created it with that user's
 * current role (a customer user's key can never act as an admin: only customer users create
 * keys, and a user who is no longer that customer's takes the key's rights along). Read on every
 * request, so a revocation holds from the next request on, on every instance.
 */
export async function authenticateApiKey(deps: Pick<UseCaseDeps, 'db' | 'clock'>, bearer: string): Promise<ApiKeyAuthentication> {
  const publicId = apiKeyPublicId(bearer);
  if (!publicId) return INVALID_KEY;
  const key = await findApiKeyCredential(deps.db, publicId);
  if (!key || !apiKeyMatches(bearer, key.secretHash)) return INVALID_KEY;
  if (key.revokedAt) return { reason: 'API_KEY_REVOKED', message: 'The API key has been revoked' };
  if (key.expiresAt && key.expiresAt <= deps.clock()) return { reason: 'TOKEN_EXPIRED', message: 'The API key has expired' };
  const user = await findPrincipal(deps, key.userId);
  if (!user || user.role !== 'customer' || user.customerId !== key.customerId) return INVALID_KEY;
  return { principal: Object.freeze({ ...user, apiKeyId: key.id }) };
}

function auditOf(apiKeyId: string, action: 'CREATED' | 'REVOKED', at: Date, userId: string) {
  return { apiKeyId, action, at, userId, requestId: null, method: null, path: null, statusCode: null };
}

function toApiKey(key: ApiKeyRecord): Schemas['ApiKey'] {
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    createdAt: key.createdAt.toISOString(),
    expiresAt: key.expiresAt?.toISOString() ?? null,
    lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
    revokedAt: key.revokedAt?.toISOString() ?? null,
  };
}
