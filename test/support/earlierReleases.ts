/**
 * Rows an earlier release wrote, as it wrote them, for the tests that this release reads them
 * alike. This release's operations cannot make them: it writes its own form (and refuses what the
 * earlier rules let through), which is the point of the tests. So they are written here in SQL,
 * one helper per kind of row, named after the release that left it; a change of the tables they
 * write changes this file, not the tests.
 */
import type { Queryable } from '../../src/store/database/db.js';

export const earlierRelease = {
  /**
   * An Idempotency-Key the previous release completed: the answer's status and envelope text as it
   * sent them, for the request of fingerprint `requestHash`.
   */
  async keptIdempotencyKey(db: Queryable, key: { userId: string; key: string; requestHash: string; status: number; text: string; at: Date }): Promise<void> {
    await db.query(
      `INSERT INTO idempotency_keys (user_id, key, request_hash, status, response_status, response_body, created_at, locked_at)
       VALUES ($1, $2, $3, 'COMPLETED', $4, $5, $6, $6)`,
      [key.userId, key.key, key.requestHash, key.status, key.text, key.at],
    );
  },

  /**
   * A webhook endpoint of `customerId` registered before the URL rules tightened, stored as it was
   * (a loopback or private address, plain http): today's registration refuses it. Returns its id.
   */
  async webhookEndpointBeforeUrlRules(db: Queryable, endpoint: { customerId: string; url: string; at: Date }): Promise<string> {
    const [row] = await db.query<{ id: string }>(
      `INSERT INTO webhook_endpoints (id, customer_id, url, event_types, description, secret, status, created_at, updated_at)
       VALUES (gen_random_uuid(), $1, $2, ARRAY['payroll_request.status_changed'], NULL, 'whsec_test', 'ENABLED', $3, $3) RETURNING id`,
      [endpoint.customerId, endpoint.url, endpoint.at],
    );
    return row!.id;
  },
};
