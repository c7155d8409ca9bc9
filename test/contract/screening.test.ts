import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { components } from '../../generated/api.js';
import { loadConfig } from '../../src/config/config.js';
import { buildWorker } from '../../src/composition/worker.js';
import { buildDeps } from '../../src/composition/deps.js';
import { DomainError } from '../../src/domain/errors.js';
import { decideScreeningHit } from '../../src/usecases/screening/screeningReview.js';
import { Money } from '../../src/domain/money/money.js';
import { createLogger } from '../../src/observability/logger.js';
import type { ExecutionDeps } from '../../src/usecases/payroll/execution.js';
import { ids } from '../fixtures/world.js';
import { balancesOf, expectBooksBalanced } from '../support/balances.js';
import { addBeneficiary, beneficiaryBody } from '../support/builders.js';
import { accept, estimateAndCreate, payrollBodies, quote, readRequest, recordFx } from '../support/payroll.js';
import { TEST_ENV, type TestServer, startTestServer } from '../support/server.js';
import { drain } from '../support/worker.js';
import { waitFor } from '../support/polling.js';

/**
 * Sanctions screening end to end, against the shipped extract of the real lists (OFAC's SDN list,
 * the UN Security Council's consolidated list): a listed person flagged at creation and refused
 * at the estimate; a list update that holds a payout in flight until an admin decides.
 */

type Schemas = components['schemas'];
const EXTRACT = fileURLToPath(new URL('../../sanctions/extract/', import.meta.url));

/** The journal sums to zero in every currency. */
async function expectJournalZeroPerCurrency(server: TestServer): Promise<void> {
  expect(await server.db.query('SELECT currency_code FROM postings GROUP BY currency_code HAVING sum(amount) <> 0')).toEqual([]);
}

async function openHitOf(server: TestServer, beneficiaryId: string): Promise<Schemas['ScreeningHit']> {
  const { data, error } = await server.as(ids.admin).GET('/v1/admin/screening/hits', { params: { query: { state: 'OPEN', limit: 100 } } });
  expect(error).toBeUndefined();
  const hit = data!.data.items.find((item) => item.beneficiaryId === beneficiaryId);
  expect(hit, `an open hit for ${beneficiaryId}`).toBeDefined();
  return hit!;
}

const screeningConfig = loadConfig({ ...TEST_ENV, SANCTIONS_SHIPPED_EXTRACT: 'true' });

describe('screening against the shipped extract', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ config: screeningConfig });
  });
  afterAll(() => server.close());
  afterEach(() => expectBooksBalanced(server.db));

  const customer = () => server.as(ids.userA);

  it('flags a listed person written in another token order without diacritics; the estimate answers SCREENING_HIT and nothing is debited', async () => {
    // The UN list writes him FRANÇOIS YANGOUVONDA BOZIZÉ (DATAID 690727).
    const created = await customer().POST('/v1/customers/beneficiaries', {
      body: beneficiaryBody({ firstName: 'Francois', lastName: 'Bozize Yangouvonda', nationality: 'CF' }),
    });
    expect(created.response.status).toBe(201);
    const flagged = created.data!.data;
    expect(flagged.screening).toMatchObject({ status: 'HIT', hits: [{ state: 'OPEN', candidate: { list: 'UN_CONSOLIDATED', entryId: '690727' } }] });
    expect(flagged.screening!.hits[0]!.candidate.score).toBeGreaterThanOrEqual(0.9);
    expect(flagged.screening!.lists.map((list) => list.list).sort()).toEqual(['OFAC_SDN', 'UN_CONSOLIDATED']);

    const clean = await customer().POST('/v1/customers/beneficiaries', { body: beneficiaryBody() });
    expect(clean.data!.data.screening).toMatchObject({ status: 'CLEAR', hits: [] });

    const before = await balancesOf(server.db, ids.acAUsd);
    const bodies = payrollBodies([
      { beneficiaryId: clean.data!.data.id, amount: '100' },
      { beneficiaryId: flagged.id, amount: '200' },
    ]);
    const refused = await customer().POST('/v1/customers/payroll/estimate', { body: bodies.estimate });
    expect(refused.response.status).toBe(409);
    expect(refused.error?.error).toMatchObject({ code: 'SCREENING_HIT', entryIndex: 1, field: '/amountSplitDetails/1/beneficiaryId' });
    expect(refused.error?.error.details).toEqual([
      expect.objectContaining({ entryIndex: 1, beneficiaryId: flagged.id, sanctionsList: 'UN_CONSOLIDATED', sanctionsEntryId: '690727' }),
    ]);
    const after = await balancesOf(server.db, ids.acAUsd);
    expect(after.balance.equals(before.balance) && after.available.equals(before.available)).toBe(true);
  });

  it('a released match lets the estimate through and is not raised again until the beneficiary changes', async () => {
    const flagged = await customer().POST('/v1/customers/beneficiaries', {
      body: beneficiaryBody({ firstName: 'Kakwavu', lastName: 'Jerome', nationality: 'CD' }),
    });
    const beneficiaryId = flagged.data!.data.id;
    const hit = await openHitOf(server, beneficiaryId);
    expect(hit).toMatchObject({
      candidate: { list: 'UN_CONSOLIDATED', entryId: '6907997' },
      listVersion: { list: 'UN_CONSOLIDATED', publishedOn: '2026-02-27' },
    });
    expect(hit.entry.names).toContain('JÉRÔME KAKWAVU BUKANDE');

    const note = 'Passport on file: born 1990 in Lubumbashi; the listed person is a general born earlier';
    const released = await server.as(ids.admin).POST('/v1/admin/screening/hits/{hitId}/release', { params: { path: { hitId: hit.id } }, body: { note } });
    expect(released.data?.data).toMatchObject({ state: 'RELEASED', decision: { decidedBy: ids.admin, note } });
    const again = await server.as(ids.admin).POST('/v1/admin/screening/hits/{hitId}/confirm', { params: { path: { hitId: hit.id } }, body: { note } });
    expect(again.error?.error.code).toBe('INVALID_STATE');

    const estimate = await customer().POST('/v1/customers/payroll/estimate', { body: payrollBodies([{ beneficiaryId, amount: '100' }]).estimate });
    expect(estimate.response.status).toBe(200);

    // The same name again: released, not raised. Another name: a new hit.
    const same = await customer().PATCH('/v1/customers/beneficiaries/{beneficiaryId}', {
      params: { path: { beneficiaryId } },
      body: { email: 'j@example.com' },
    });
    expect(same.data!.data.screening).toMatchObject({ status: 'CLEAR', hits: [{ hitId: hit.id, state: 'RELEASED' }] });
    const renamed = await customer().PATCH('/v1/customers/beneficiaries/{beneficiaryId}', {
      params: { path: { beneficiaryId } },
      body: { firstName: 'Jerome', lastName: 'Kakwavu Bukande' },
    });
    expect(renamed.data!.data.screening).toMatchObject({ status: 'HIT', hits: [{ state: 'OPEN' }] });
    expect(renamed.data!.data.screening!.hits[0]!.hitId).not.toBe(hit.id);
  });

  it('four eyes: the creator of the beneficiary never decides its hit, even with the admin role', async () => {
    const flagged = await customer().POST('/v1/customers/beneficiaries', {
      body: beneficiaryBody({ firstName: 'Abdullahi Hussein', lastName: 'Kahie', nationality: 'NO' }),
    });
    const hit = await openHitOf(server, flagged.data!.data.id);
    // No user is both a customer and an admin today: the rule is checked on the use case with such a caller.
    const deps = buildDeps(screeningConfig, server.db, server.clock.now);
    const creatorAsAdmin = { userId: ids.userA, role: 'admin' as const, customerId: null };
    const refusal = await decideScreeningHit(deps, creatorAsAdmin, hit.id, 'RELEASED', { note: 'mine' }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(DomainError);
    expect(refusal).toMatchObject({ code: 'FORBIDDEN', reason: 'SELF_REVIEW' });
    expect((await openHitOf(server, flagged.data!.data.id)).state).toBe('OPEN');
  });

  it('lists hits a page at a time by state, to admins only', async () => {
    for (const lastName of ['Badege', 'Badege Eric']) {
      await addBeneficiary(customer(), beneficiaryBody({ firstName: 'Eric', lastName, nationality: 'CD' }));
    }
    const first = await server.as(ids.admin).GET('/v1/admin/screening/hits', { params: { query: { state: 'OPEN', limit: 1 } } });
    expect(first.data!.data.items).toHaveLength(1);
    const cursor = first.data!.data.nextCursor!;
    expect(cursor).toBeTruthy();
    const second = await server.as(ids.admin).GET('/v1/admin/screening/hits', { params: { query: { state: 'OPEN', limit: 1, cursor } } });
    expect(second.data!.data.items[0]!.id).not.toBe(first.data!.data.items[0]!.id);
    const otherFilter = await server.as(ids.admin).GET('/v1/admin/screening/hits', { params: { query: { state: 'RELEASED', cursor } } });
    expect(otherFilter.error?.error).toMatchObject({ code: 'VALIDATION_ERROR', field: 'cursor' });
    const forbidden = await customer().GET('/v1/admin/screening/hits', {});
    expect(forbidden.error?.error.code).toBe('FORBIDDEN');
  });
});

describe('a list update holds a payout in flight until an admin decides', () => {
  let server: TestServer;
  let worker: ExecutionDeps;
  let listDir: string;
  beforeAll(async () => {
    listDir = await mkdtemp(join(tmpdir(), 'sanctions-'));
    const env = { ...TEST_ENV, SANCTIONS_LIST_DIR: listDir };
    server = await startTestServer({ config: loadConfig(env) });
    worker = buildWorker(loadConfig({ ...env, SIMULATED_SETTLEMENT_MS: '0' }), server.db, createLogger('silent'), server.clock.now).deps;
  });
  afterAll(async () => {
    await server.close();
    await rm(listDir, { recursive: true, force: true });
  });
  // The folder holds OFAC's list only; each test's update adds the UN's.
  beforeEach(async () => {
    await rm(join(listDir, 'UN_consolidated.xml'), { force: true });
    await copyFile(join(EXTRACT, 'SDN.XML'), join(listDir, 'SDN.XML'));
  });
  afterEach(async () => {
    await expectBooksBalanced(server.db);
    await expectJournalZeroPerCurrency(server);
  });

  const customer = () => server.as(ids.userA);
  const admin = () => server.as(ids.admin);

  /** A payroll to a person the UN lists (not yet in the folder) and to another, accepted and exchanged: its payouts' file not yet written. */
  async function payrollInFlight(firstName: string, lastName: string, beforeUpdate?: (listedId: string) => Promise<void>) {
    const listed = await customer().POST('/v1/customers/beneficiaries', { body: beneficiaryBody({ firstName, lastName, nationality: 'CD' }) });
    expect(listed.data!.data.screening?.status).toBe('CLEAR');
    const listedId = listed.data!.data.id;
    const sourceBefore = await balancesOf(server.db, ids.acAUsd);
    const { created } = await estimateAndCreate(customer(), [
      { beneficiaryId: listedId, amount: '100', purposeCode: 'SAL' },
      { beneficiaryId: ids.beneficiaryA4, amount: '200', purposeCode: 'SAL' },
    ]);
    const requestId = created.data!.data.id;
    await quote(server, requestId);
    await accept(server, requestId);
    await drain(worker);
    await recordFx(server, requestId);
    await beforeUpdate?.(listedId);
    // The update: newer files in the folder.
    await copyFile(join(EXTRACT, 'UN_consolidated.xml'), join(listDir, 'UN_consolidated.xml'));
    await drain(worker);
    const request = await readRequest(server, requestId);
    const payoutOf = (beneficiaryId: string) =>
      request.transfers.find((transfer) => transfer.transferType === 'BANK_TO_BENEFICIARY' && transfer.payoutInstruction?.beneficiaryId === beneficiaryId)!;
    expect(payoutOf(ids.beneficiaryA4).status).toBe('COMPLETED');
    expect(payoutOf(listedId).status).toBe('PENDING');
    const hit = await openHitOf(server, listedId);
    // The request says which payout is held and why.
    expect(payoutOf(listedId).screeningHold).toMatchObject({ hitId: hit.id, state: 'OPEN', list: 'UN_CONSOLIDATED', entryId: hit.candidate.entryId });
    expect(payoutOf(ids.beneficiaryA4).screeningHold).toBeUndefined();
    // And the customer's webhooks hear of the hold: listed once every older transaction on the server has ended.
    const heldPayout = payoutOf(listedId).id;
    const heldEvents = async () =>
      (await customer().GET('/v1/customers/events', { params: { query: { type: ['transfer.screening_held'], limit: 100 } } })).data!.data.items;
    const heldListed = await waitFor('the hold listed among the events', heldEvents, (items) => items.some((event) => event.data.id === heldPayout), {
      deadlineMs: 60_000,
      everyMs: 100,
    });
    expect(heldListed.find((event) => event.data.id === heldPayout)).toMatchObject({
      type: 'transfer.screening_held',
      data: { status: 'PENDING', screeningHold: { hitId: hit.id, state: 'OPEN' } },
    });
    expect(hit.heldPayouts).toEqual([expect.objectContaining({ transferId: payoutOf(listedId).id, payrollRequestId: requestId })]);
    return { requestId, listedId, hit, heldPayoutId: payoutOf(listedId).id, sourceBefore };
  }

  it('confirm: the held payout fails and is credited back exactly, the others paid', async () => {
    const { requestId, hit, heldPayoutId, sourceBefore } = await payrollInFlight('Eric', 'Badege');
    const confirmed = await admin().POST('/v1/admin/screening/hits/{hitId}/confirm', {
      params: { path: { hitId: hit.id } },
      body: { note: 'Same person: date and place of birth match the listing' },
    });
    expect(confirmed.data?.data.state).toBe('CONFIRMED');
    await drain(worker);
    const done = await readRequest(server, requestId);
    expect(done.status).toBe('PARTIALLY_COMPLETED');
    const held = done.transfers.find((transfer) => transfer.id === heldPayoutId)!;
    expect(held.status).toBe('FAILED');
    expect(held.failureReason).toMatch(/Sanctions screening: UN_CONSOLIDATED entry 6907993/);
    expect(held.screeningHold).toMatchObject({ state: 'CONFIRMED', entryId: '6907993' });
    // The source account paid the total less what came back, to the minor unit.
    const sourceAfter = await balancesOf(server.db, ids.acAUsd);
    const paid = sourceBefore.balance.minus(sourceAfter.balance);
    expect(paid.equals(new Money(done.totalAmount).minus(new Money(done.returnedAmount!))), `paid ${paid.toFixed()}`).toBe(true);
    expect(new Money(done.returnedAmount!).isZero()).toBe(false);
  });

  it('release: the held payout goes to the bank in a file of its own and is paid', async () => {
    const { requestId, hit, heldPayoutId } = await payrollInFlight('Kakwavu Bukande', 'Jerome');
    const released = await admin().POST('/v1/admin/screening/hits/{hitId}/release', {
      params: { path: { hitId: hit.id } },
      body: { note: 'Another person: born 1994, never in the armed forces' },
    });
    expect(released.data?.data.state).toBe('RELEASED');
    // Read again before the worker moves the payout: the request says the decision at once.
    const decided = await readRequest(server, requestId);
    expect(decided.transfers.find((transfer) => transfer.id === heldPayoutId)!.screeningHold).toMatchObject({ hitId: hit.id, state: 'RELEASED' });
    await drain(worker);
    const done = await readRequest(server, requestId);
    expect(done.status).toBe('COMPLETED');
    expect(done.transfers.find((transfer) => transfer.id === heldPayoutId)!.status).toBe('COMPLETED');
  });

  it('a beneficiary the list update skips (removed after its payroll was accepted) is screened again before the file, and held', async () => {
    const { requestId, hit, heldPayoutId } = await payrollInFlight('Eric', 'Badege', async (listedId) => {
      const removed = await customer().DELETE('/v1/customers/beneficiaries/{beneficiaryId}', { params: { path: { beneficiaryId: listedId } } });
      expect(removed.response.status).toBeLessThan(300);
    });
    expect(hit.candidate.entryId).toBe('6907993');
    const released = await admin().POST('/v1/admin/screening/hits/{hitId}/release', {
      params: { path: { hitId: hit.id } },
      body: { note: 'Another person: the payroll was checked with the employer' },
    });
    expect(released.data?.data.state).toBe('RELEASED');
    await drain(worker);
    const done = await readRequest(server, requestId);
    expect(done.transfers.find((transfer) => transfer.id === heldPayoutId)!.status).toBe('COMPLETED');
  });
});
