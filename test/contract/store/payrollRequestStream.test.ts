import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerPayrollRequest, getPayrollRequestJson } from '../../../src/usecases/getPayrollRequest.js';
import { JsonStream } from '../../../src/usecases/jsonStream.js';
import type { Principal } from '../../../src/usecases/principal.js';
import { ids } from '../../fixtures/world.js';
import { type FreshDatabase, freshDatabase } from '../../support/database.js';

/**
 * A big payroll request's GET is streamed: read a page of items at a time inside one read-only
 * snapshot and written as it is read. Its bytes are those of the one statement that builds the
 * small ones, its length is known before the first byte (Content-Length), and a change committed
 * while it is being read does not show in it. Pages of one or two items stand in for a big request.
 */
const admin: Principal = { userId: ids.admin, role: 'admin', customerId: null };
const everyRequestStreamed = { aboveSplits: -1, pageItems: 2 };
let fresh: FreshDatabase;
beforeAll(async () => {
  fresh = await freshDatabase();
});
afterAll(async () => fresh?.drop());

const streamOf = async (caller: Principal, id: string, streaming = everyRequestStreamed) => {
  const answer = await answerPayrollRequest({ db: fresh.db }, caller, id, streaming);
  if (!(answer instanceof JsonStream)) throw new Error('expected a streamed answer');
  return answer;
};

describe('a streamed payroll request', () => {
  it('has the bytes of the one-statement answer, for every request, whatever the page size', async () => {
    const { db } = fresh;
    const hostile = 'a "quoted" \\ tab\t, bell\u0007, é, 😀';
    await db.query('UPDATE amount_splits SET purpose_code = $2 WHERE payroll_request_id = $1', [ids.requestACompleted, hostile]);
    const requests = await db.query<{ id: string; customer_id: string }>('SELECT id, customer_id FROM payroll_requests ORDER BY id');
    expect(requests.length).toBeGreaterThan(1);
    for (const { id, customer_id: customerId } of requests) {
      const whole = (await getPayrollRequestJson({ db }, admin, id)).text;
      for (const pageItems of [1, 2, 1000]) expect(await (await streamOf(admin, id, { aboveSplits: -1, pageItems })).text(), `request ${id}`).toBe(whole);
      const owner: Principal = { userId: ids.userA, role: 'customer', customerId };
      expect(await (await streamOf(owner, id)).text()).toBe(whole);
    }
  });

  it("is not another customer's to read, and small requests keep the one statement", async () => {
    const stranger: Principal = { userId: ids.userA, role: 'customer', customerId: '00000000-0000-4000-8000-000000000000' };
    await expect(answerPayrollRequest({ db: fresh.db }, stranger, ids.requestACompleted, everyRequestStreamed)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await answerPayrollRequest({ db: fresh.db }, admin, ids.requestACompleted)).not.toBeInstanceOf(JsonStream);
  });

  it('reads one snapshot: a change committed between two pages does not show', async () => {
    const id = ids.requestACompleted;
    const before = (await getPayrollRequestJson({ db: fresh.db }, admin, id)).text;
    const stream = await streamOf(admin, id, { aboveSplits: -1, pageItems: 1 });
    const parts: string[] = [];
    let changed = false;
    await stream.send(async (bytes, read) => {
      expect(bytes).toBe(Buffer.byteLength(before));
      for await (const part of read) {
        parts.push(part);
        if (changed) continue;
        changed = true;
        await fresh.db.query("UPDATE amount_splits SET purpose_code = 'changed meanwhile' WHERE payroll_request_id = $1", [id]);
        await fresh.db.query("UPDATE payroll_requests SET failure_reason = 'changed meanwhile' WHERE id = $1", [id]);
      }
    });
    expect(parts.join('')).toBe(before);
    expect((await getPayrollRequestJson({ db: fresh.db }, admin, id)).text).toContain('changed meanwhile');
  });
});
