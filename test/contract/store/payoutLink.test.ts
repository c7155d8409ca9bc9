import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { returnedAmountOf } from '../../../src/domain/returnedAmount.js';
import type { Queryable } from '../../../src/store/db.js';
import { getPayrollRequestHead } from '../../../src/store/payrollRequestJson.js';
import { findPayrollItemsUpTo, insertPayrollRequestAnswer } from '../../../src/store/payrollRequestJsonWrites.js';
import { findAmountSplits } from '../../../src/store/payrollRequests.js';
import { payrollRequestTopLevel } from '../../../src/store/payrollRequestTopLevel.js';
import { answerPayrollRequest, getPayrollRequestJson } from '../../../src/usecases/getPayrollRequest.js';
import { JsonStream } from '../../../src/usecases/jsonStream.js';
import type { Principal } from '../../../src/usecases/principal.js';
import { ids } from '../../fixtures/world.js';
import { type FreshDatabase, freshDatabase } from '../../support/database.js';

/**
 * A split's payoutTransferId is read from its payout, which names its split (migration 032): the
 * FX record and the world loader write no split. Every text that carries a split (the GET in one
 * statement, streamed a page at a time with its length, the items of an event or an answer, a
 * stored answer's parts) is byte for byte what the split gave when the link was stored on it, as
 * the FX record stored it before and as a database of an earlier release still has it.
 */
const admin: Principal = { userId: ids.admin, role: 'admin', customerId: null };
let fresh: FreshDatabase;
beforeAll(async () => {
  fresh = await freshDatabase();
});
afterAll(async () => fresh?.drop());

/** A stored answer written in parts of one item, read back whole (rolled back: it is only read here). */
async function storedAnswer(tx: Queryable, requestId: string): Promise<string> {
  const found = await getPayrollRequestHead(tx, requestId);
  const top = payrollRequestTopLevel(returnedAmountOf(found.returnedAmounts, found.sourceDecimals), found.head);
  const answerId = randomUUID();
  await insertPayrollRequestAnswer(tx, { answerId, requestId, top, at: new Date(), itemsPerPart: 1 });
  const [row] = await tx.query<{ text: string }>("SELECT string_agg(body, '' ORDER BY seq) AS text FROM transient_answer_parts WHERE answer_id = $1", [
    answerId,
  ]);
  return row!.text;
}

/** Every text of every request that carries its splits, and the splits as the store's records give them. */
async function texts(): Promise<unknown[]> {
  const { db } = fresh;
  const requests = await db.query<{ id: string }>('SELECT id FROM payroll_requests ORDER BY id');
  const all: unknown[] = [];
  for (const { id } of requests) {
    const streamed = await answerPayrollRequest({ db }, admin, id, { aboveSplits: -1, pageItems: 1 });
    if (!(streamed instanceof JsonStream)) throw new Error('expected a streamed answer');
    const rolledBack = new Error('rolled back');
    let stored = '';
    await expect(
      db.transaction(async (tx) => {
        stored = await storedAnswer(tx, id);
        throw rolledBack;
      }),
    ).rejects.toBe(rolledBack);
    const whole = (await getPayrollRequestJson({ db }, admin, id)).text;
    expect(stored).toBe(whole);
    all.push(whole, await streamed.text(), stored, await findPayrollItemsUpTo(db, id, 1_000_000), await findAmountSplits(db, id));
  }
  return all;
}

describe("a split's payout link", () => {
  it('is read from the payout: the same bytes as when it was stored on the split', async () => {
    const { db } = fresh;
    const payouts = await db.query<{ id: string; split: string }>('SELECT id, amount_split_id AS split FROM transfers WHERE amount_split_id IS NOT NULL');
    expect(payouts.length).toBeGreaterThan(1);
    expect(await db.query('SELECT 1 FROM amount_splits WHERE payout_transfer_id IS NOT NULL')).toEqual([]);
    const read = await texts();
    const request = (await getPayrollRequestJson({ db }, admin, ids.requestACompleted)).parse();
    expect(request.amountSplitDetails.map((split) => split.payoutTransferId)).toEqual([ids.transferAPayout1, ids.transferAPayout2]);

    // The write the FX record made before migration 032: each split's JSON written again by its trigger.
    const linked = await db.query('UPDATE amount_splits s SET payout_transfer_id = p.id FROM transfers p WHERE p.amount_split_id = s.id RETURNING 1');
    expect(linked).toHaveLength(payouts.length);
    expect(await texts()).toEqual(read);
  });
});
