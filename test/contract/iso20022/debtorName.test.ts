// The debtor of a payment file as the bank reads it: `Dbtr/Nm` is the paying account's `legalName`
// from the world file when it has one, else the paying company's legal name. A world is loaded, a
// payroll of customer A is driven to its payouts (the FX record puts them in a batch), and the batch
// is read and written as the rail does.
import { afterAll, describe, expect, it } from 'vitest';
import { buildPain001 } from '../../../src/adapters/bank/iso20022/pain001.js';
import { child, children, parseXml, text } from '../../../src/adapters/bank/iso20022/xml.js';
import { xsdErrors } from '../../../src/adapters/bank/iso20022/xsd.js';
import { loadPayoutBatch } from '../../../src/store/payouts/payoutBatches.js';
import type { World } from '../../../src/world/types.js';
import { ids } from '../../fixtures/world.js';
import { apiOf, requestWithPayouts } from '../../reliability/api.js';
import { worldWith } from '../../support/builders.js';
import { type TestServer, startTestServer } from '../../support/server.js';

const servers: TestServer[] = [];
afterAll(async () => {
  for (const server of servers) await server.close();
});

/** The test world with the partner-bank account (the payroll account of A's payrolls) at a bank, and `legalName` if given. */
const partnerBankAtABank = (legalName?: string): World =>
  worldWith({
    accounts: { [ids.accountPartnerBank]: { iban: 'AE420260001015333439101', bic: 'EBILAEAD', ...(legalName === undefined ? {} : { legalName }) } },
  });

/** The pain.001 of the batch of a new payroll's payouts, on a server holding `world`: its PmtInf/Dbtr/Nm. */
async function debtorNameOfFile(world: World): Promise<string | undefined> {
  const server = await startTestServer({ world });
  servers.push(server);
  const requestId = await requestWithPayouts(server, apiOf(server), 100);
  const [made] = await server.db.query<{ id: string }>('SELECT id FROM payout_batches WHERE payroll_request_id = $1', [requestId]);
  const batch = await loadPayoutBatch(server.db, made!.id, '2026-11-26');
  expect(batch.items.length).toBeGreaterThan(0);
  const { xml } = buildPain001(batch, { createdAt: new Date('2026-11-25T10:00:00Z'), initiatingParty: 'Payroll Fee Service' });
  expect(await xsdErrors(xml, 'pain.001.001.10')).toEqual([]);
  const [paymentInfo] = children(child(child(parseXml(xml), 'Document'), 'CstmrCdtTrfInitn'), 'PmtInf');
  return text(child(paymentInfo, 'Dbtr'), 'Nm');
}

describe('the debtor name of a payment file', () => {
  it("is the paying account's legalName from the world file", async () => {
    expect(await debtorNameOfFile(partnerBankAtABank('Payroll Partner Bank Client Funds Account'))).toBe('Payroll Partner Bank Client Funds Account');
  });

  it('without one, is the legal name of the customer whose payroll the partner-bank account pays', async () => {
    expect(await debtorNameOfFile(partnerBankAtABank())).toBe('Alpha Trading LLC');
  });
});
