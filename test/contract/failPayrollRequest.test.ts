/**
 * A request can never be stranded: a quote far from the market (a typo) is refused, and an
 * operator can fail an EXECUTING request whose payouts were not created, returning every unit of
 * the customer's funds through balanced journal entries, whatever leg the execution had reached.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executePendingWork } from '../../src/usecases/payroll/execution.js';
import { ids } from '../fixtures/world.js';
import { balancesOf, expectBooksBalanced } from '../support/balances.js';
import { crashWindow } from '../support/crashWindows.js';
import { accept, estimateAndCreate, quote, readRequest, recordFx } from '../support/payroll.js';
import { type TestServer, startTestServer } from '../support/server.js';
import { drain, workerFor } from '../support/worker.js';

let server: TestServer;
beforeAll(async () => (server = await startTestServer()));
afterAll(() => server?.close());

const fail = (requestId: string, reason = 'The FX desk cannot execute at the accepted quote') =>
  server.as(ids.admin).POST('/v1/admin/payroll/requests/{requestId}/fail', { params: { path: { requestId } }, body: { reason } });

async function acceptedRequest(amount: string): Promise<string> {
  const { created } = await estimateAndCreate(server.as(ids.userA), [{ beneficiaryId: ids.beneficiaryA1, amount, amountCurrencyType: 'PAYROLL' }]);
  const id = created.data!.data.id;
  expect((await quote(server, id)).response.status).toBe(200);
  expect((await accept(server, id)).response.status).toBe(200);
  return id;
}

describe('POST /v1/admin/payroll/requests/{requestId}/quote: QUOTE_TOLERANCE_BPS', () => {
  it('refuses a rate more than 10 % from the current rate (a typo), naming both rates; accepts one within', async () => {
    const { created } = await estimateAndCreate(server.as(ids.userA), [{ beneficiaryId: ids.beneficiaryA2, amount: '900.00', amountCurrencyType: 'PAYROLL' }]);
    const id = created.data!.data.id;
    const typo = await quote(server, id, '36.54');
    expect(typo.response.status).toBe(400);
    expect(typo.error?.error).toMatchObject({ code: 'VALIDATION_ERROR', reason: 'QUOTE_OUT_OF_TOLERANCE', field: '/exchangeRate' });
    expect((await readRequest(server, id)).status).toBe('PENDING');
    expect((await quote(server, id, '3.3100')).response.status).toBe(200);
  });
});

describe('POST /v1/admin/payroll/requests/{requestId}/fail', () => {
  it.each([
    ['before any leg ran', 0],
    ['after the source debit', 1],
    ['after both legs (the FX record refused)', 2],
  ] as const)('%s: FAILED with the reason, the final total back on the source account, the books balanced', async (_name, steps) => {
    const before = await balancesOf(server.db, ids.acAUsd);
    const id = await acceptedRequest(`${100 + steps}.00`);
    const total = (await readRequest(server, id)).totalAmount;
    const worker = workerFor(server);
    // Every leg settles ten minutes after it is sent: EXECUTING with the source debit at the processor.
    await drain(workerFor(server, 600_000));
    const inFlight = await fail(id);
    expect(inFlight.response.status).toBe(409);
    expect(inFlight.error?.error).toMatchObject({ code: 'INVALID_STATE', reason: 'TRANSFER_IN_FLIGHT' });
    if (steps === 0) {
      // As right after the worker started the request: the debit created, not yet sent.
      const [debit] = (await readRequest(server, id)).transfers;
      await crashWindow.legCreatedNotSent(server.db, debit!.id);
    } else {
      // Ten minutes pass: the processor has settled the debit, and the worker's recheck of the leg it left PROCESSING is due.
      server.clock.advance(600 + 5);
      // After the source debit: one pass records it and creates the second leg, which the next pass would send.
      if (steps === 1) await executePendingWork(workerFor(server, 600_000));
      else await drain(worker);
      if (steps === 2) expect((await recordFx(server, id, '9.9')).response.status).toBe(400);
    }
    const executing = await readRequest(server, id);
    expect(executing.status).toBe('EXECUTING');
    expect(executing.transfers.map((t) => t.status)).toEqual([['PENDING'], ['COMPLETED', 'PENDING'], ['COMPLETED', 'COMPLETED']][steps]);
    const mid = await balancesOf(server.db, ids.acAUsd);
    expect(before.balance.minus(mid.balance).toFixed(2)).toBe(total);

    const failed = await fail(id);
    expect(failed.response.status, JSON.stringify(failed.error)).toBe(200);
    expect(failed.data!.data).toMatchObject({ status: 'FAILED', failureReason: 'The FX desk cannot execute at the accepted quote' });
    expect(failed.data!.data.transfers.every((t) => t.status === 'COMPLETED' || t.status === 'FAILED')).toBe(true);
    const after = await balancesOf(server.db, ids.acAUsd);
    expect(after.balance.equals(before.balance) && after.available.equals(before.available)).toBe(true);
    await expectBooksBalanced(server.db);
    await drain(worker); // nothing is sent or posted for it afterwards
    expect((await balancesOf(server.db, ids.acAUsd)).balance.equals(before.balance)).toBe(true);
    expect((await readRequest(server, id)).status).toBe('FAILED');
    const again = await fail(id);
    expect(again.response.status).toBe(409);
  });

  it('403 for a customer; 409 from any other status than EXECUTING', async () => {
    const { created } = await estimateAndCreate(server.as(ids.userA), [{ beneficiaryId: ids.beneficiaryA3, amount: '50.00', amountCurrencyType: 'PAYROLL' }]);
    const id = created.data!.data.id;
    const customer = await server
      .as(ids.userA)
      .POST('/v1/admin/payroll/requests/{requestId}/fail', { params: { path: { requestId: id } }, body: { reason: 'x' } });
    expect(customer.response.status).toBe(403);
    const pending = await fail(id);
    expect(pending.response.status).toBe(409);
    expect(pending.error?.error).toMatchObject({ code: 'INVALID_STATE', reason: 'TRANSITION_NOT_ALLOWED' });
    expect((await readRequest(server, id)).status).toBe('PENDING');
  });
});
