// The debtor of a payment file as the bank reads it: `Dbtr/Nm` is the paying account's `legalName`
// from the world file when it has one, else the paying company's legal name. A world is loaded, the
// completed request's payouts are put in a batch, and the batch is read and written as the rail does.
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { buildPain001 } from '../../../src/adapters/iso20022/pain001.js';
import { child, children, parseXml, text } from '../../../src/adapters/iso20022/xml.js';
import { xsdErrors } from '../../../src/adapters/iso20022/xsd.js';
import { insertPayoutBatch, loadPayoutBatch } from '../../../src/store/payoutBatches.js';
import type { World } from '../../../src/world/types.js';
import { ids, testWorld } from '../../fixtures/world.js';
import { type FreshDatabase, freshDatabase } from '../../support/database.js';

const drops: FreshDatabase[] = [];
afterAll(async () => {
  for (const database of drops) await database.drop();
});

/** The test world with the partner-bank account (the completed request's payroll account) at a bank, and `legalName` if given. */
function worldWith(legalName?: string): World {
  const world = structuredClone(testWorld);
  const account = world.accounts.find((candidate) => candidate.id === ids.accountPartnerBank)!;
  Object.assign(account, { iban: 'AE420260001015333439101', bic: 'EBILAEAD' }, legalName === undefined ? {} : { legalName });
  return world;
}

/** The pain.001 of a batch of the completed request's payouts, from a database holding `world`: its PmtInf/Dbtr/Nm. */
async function debtorNameOfFile(world: World): Promise<string | undefined> {
  const database = await freshDatabase(world);
  drops.push(database);
  const batchId = randomUUID();
  const batch = await database.db.transaction(async (tx) => {
    await insertPayoutBatch(tx, { id: batchId, requestId: ids.requestACompleted, currencyCode: 'AED', itemCount: 2, at: new Date() });
    await tx.query(`UPDATE transfers SET batch_id = $1 WHERE payroll_request_id = $2 AND transfer_type = 'BANK_TO_BENEFICIARY'`, [
      batchId,
      ids.requestACompleted,
    ]);
    return loadPayoutBatch(tx, batchId, '2026-11-26');
  });
  expect(batch.items.length).toBeGreaterThan(0);
  const { xml } = buildPain001(batch, { createdAt: new Date('2026-11-25T10:00:00Z'), initiatingParty: 'Payroll Fee Service' });
  expect(await xsdErrors(xml, 'pain.001.001.10')).toEqual([]);
  const [paymentInfo] = children(child(child(parseXml(xml), 'Document'), 'CstmrCdtTrfInitn'), 'PmtInf');
  return text(child(paymentInfo, 'Dbtr'), 'Nm');
}

describe('the debtor name of a payment file', () => {
  it("is the paying account's legalName from the world file", async () => {
    expect(await debtorNameOfFile(worldWith('Payroll Partner Bank Client Funds Account'))).toBe('Payroll Partner Bank Client Funds Account');
  });

  it('without one, is the legal name of the customer whose payroll the partner-bank account pays', async () => {
    expect(await debtorNameOfFile(worldWith())).toBe('Alpha Trading LLC');
  });
});
