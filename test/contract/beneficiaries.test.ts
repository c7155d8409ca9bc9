// Customer self-service of beneficiaries: create → list → get → patch → deactivate →
// reactivate through the typed client with response validation on; every validation error names
// its field; duplicates are 409; another customer's beneficiary is 404 everywhere; lists mask bank
// details; snapshots of existing payroll requests never change.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../generated/api.js';
import { ids } from '../fixtures/world.js';
import { estimateAndCreate, payrollBodies } from '../support/payroll.js';
import { type TestServer, startTestServer } from '../support/server.js';

type CreateBody = components['schemas']['CreateBeneficiaryRequest'];

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

const customer = () => server.as(ids.userA);
const otherCustomer = () => server.as(ids.userB);

/** Valid UAE IBANs (ISO 13616 check digits right), unused by the test world. */
const IBAN_1 = 'AE070331234567890123456';
const IBAN_2 = 'AE630330000010123456789';

const priya: CreateBody = {
  type: 'INDIVIDUAL',
  firstName: 'Priya',
  lastName: 'Nair',
  nationality: 'IN',
  bankName: 'Emirates NBD',
  iban: 'ae07 0331 2345 6789 0123 456',
  swiftBic: 'EBILAEAD',
  reference: 'T-EMP-1',
  email: 'priya.nair@example.com',
};

async function create(body: CreateBody, idempotencyKey?: string) {
  return customer().POST('/v1/customers/beneficiaries', { body, ...(idempotencyKey && { idempotencyKey }) });
}

async function created(body: CreateBody) {
  const answer = await create(body);
  expect(answer.response.status, JSON.stringify(answer.error)).toBe(201);
  return answer.data!.data;
}

const byId = (beneficiaryId: string) => ({ params: { path: { beneficiaryId } } });

describe('POST → GET /v1/customers/beneficiaries → GET, PATCH, DELETE /{beneficiaryId}', () => {
  it('walks the whole life of a beneficiary', async () => {
    const made = await created(priya);
    expect(made).toMatchObject({ displayName: 'Priya Nair', iban: IBAN_1, swiftBic: 'EBILAEAD', active: true, reference: 'T-EMP-1' });
    expect(made.createdAt).toBe(made.updatedAt);

    const listed = await customer().GET('/v1/customers/beneficiaries', { params: { query: { q: 't-emp-1' } } });
    expect(listed.data!.data.items).toEqual([{ ...made, iban: 'AE07 **** **** 3456' }]);

    const got = await customer().GET('/v1/customers/beneficiaries/{beneficiaryId}', byId(made.id));
    expect(got.data!.data).toEqual(made);

    server.clock.advance(60);
    const patched = await customer().PATCH('/v1/customers/beneficiaries/{beneficiaryId}', {
      ...byId(made.id),
      body: { lastName: 'Nair-Menon', displayName: 'Priya Nair-Menon', iban: IBAN_2, swiftBic: null, email: null },
    });
    expect(patched.response.status, JSON.stringify(patched.error)).toBe(200);
    const after = patched.data!.data;
    expect(after).toMatchObject({ lastName: 'Nair-Menon', displayName: 'Priya Nair-Menon', iban: IBAN_2, reference: 'T-EMP-1' });
    expect(after).not.toHaveProperty('swiftBic');
    expect(after).not.toHaveProperty('email');
    expect(after.updatedAt > after.createdAt).toBe(true);

    const deactivated = await customer().DELETE('/v1/customers/beneficiaries/{beneficiaryId}', byId(made.id));
    expect(deactivated.data!.data).toMatchObject({ id: made.id, active: false, iban: IBAN_2 });
    const again = await customer().DELETE('/v1/customers/beneficiaries/{beneficiaryId}', byId(made.id));
    expect(again.data!.data).toEqual(deactivated.data!.data);
    expect((await customer().GET('/v1/customers/beneficiaries/{beneficiaryId}', byId(made.id))).data!.data.active).toBe(false);

    const reactivated = await customer().PATCH('/v1/customers/beneficiaries/{beneficiaryId}', { ...byId(made.id), body: { active: true } });
    expect(reactivated.data!.data).toEqual({ ...deactivated.data!.data, active: true, updatedAt: reactivated.data!.data.updatedAt });
  });

  it('creates a BUSINESS paid by account number and bank code, displayed by its company name', async () => {
    const business = await created({
      type: 'BUSINESS',
      companyName: 'Atlas Freight LLC',
      nationality: 'US',
      bankName: 'Chase',
      accountNumber: '0001 2345 6789',
      bankCode: '021000021',
    });
    expect(business).toMatchObject({ displayName: 'Atlas Freight LLC', accountNumber: '000123456789', bankCode: '021000021' });
    expect(business).not.toHaveProperty('firstName');
    const listed = await customer().GET('/v1/customers/beneficiaries', { params: { query: { q: 'atlas freight' } } });
    expect(listed.data!.data.items.map((b) => b.accountNumber)).toEqual(['0001 **** **** 6789']);
  });

  it('replays a create with the same Idempotency-Key: same beneficiary, created once', async () => {
    const body: CreateBody = { ...priya, iban: 'AE260211000000230064016', reference: 'T-IDEM', email: undefined };
    const first = await create(body, 'beneficiary-create-1');
    const second = await create(body, 'beneficiary-create-1');
    expect(first.response.status).toBe(201);
    expect(second.response.status).toBe(201);
    expect(second.data!.data).toEqual(first.data!.data);
    const listed = await customer().GET('/v1/customers/beneficiaries', { params: { query: { q: 'T-IDEM' } } });
    expect(listed.data!.data.items).toHaveLength(1);
    const reused = await create({ ...body, reference: 'T-IDEM-2' }, 'beneficiary-create-1');
    expect(reused.response.status).toBe(422);
  });
});

describe('validation: 400 VALIDATION_ERROR naming the field, nothing created', () => {
  it.each<[string, Partial<CreateBody>, string]>([
    ['bad IBAN checksum', { iban: 'AE070331234567890123457' }, '/iban'],
    ['IBAN of the wrong length for its country', { iban: 'AE07033123456789012345' }, '/iban'],
    ['IBAN of no IBAN country', { iban: 'ZZ07033123456789012345' }, '/iban'],
    ['bad BIC', { swiftBic: 'EBIL1EAD' }, '/swiftBic'],
    ['missing bank details', { iban: undefined }, '/iban'],
    ['both iban and accountNumber', { accountNumber: '123456789' }, '/accountNumber'],
    ['account number without bank', { iban: undefined, swiftBic: undefined, accountNumber: '123456789' }, '/bankCode'],
    ['unknown country', { nationality: 'ZZ' }, '/nationality'],
    ['lower-case country', { nationality: 'in' }, '/nationality'],
    ['missing last name', { lastName: undefined }, '/lastName'],
    ['BUSINESS without companyName', { type: 'BUSINESS' }, '/companyName'],
    ['malformed email', { email: 'not-an-email' }, '/email'],
  ])('%s', async (_name, change, field) => {
    const answer = await create({ ...priya, reference: 'T-INVALID', ...change });
    expect(answer.response.status).toBe(400);
    expect(answer.error!.error).toMatchObject({ code: 'VALIDATION_ERROR', field });
    const listed = await customer().GET('/v1/customers/beneficiaries', { params: { query: { q: 'T-INVALID' } } });
    expect(listed.data!.data.items).toEqual([]);
  });

  it('a PATCH whose result breaks a rule changes nothing', async () => {
    const made = await created({ ...priya, iban: 'AE250260001015333439601', reference: 'T-PATCH-RULE' });
    const answer = await customer().PATCH('/v1/customers/beneficiaries/{beneficiaryId}', { ...byId(made.id), body: { iban: null } });
    expect(answer.response.status).toBe(400);
    expect(answer.error!.error).toMatchObject({ code: 'VALIDATION_ERROR', field: '/iban' });
    expect((await customer().GET('/v1/customers/beneficiaries/{beneficiaryId}', byId(made.id))).data!.data).toEqual(made);
  });
});

describe('duplicates: 409 DUPLICATE_BENEFICIARY naming the field and the existing beneficiary', () => {
  const duplicate = (field: string) => ({ code: 'DUPLICATE_BENEFICIARY', message: expect.any(String), field });
  it('the same IBAN (however written), account, or reference; on create and on PATCH', async () => {
    const first = await created({ ...priya, iban: 'AE950260001015333439602', reference: 'T-DUP-1' });
    const sameIban = await create({ ...priya, iban: 'ae95 0260 0010 1533 3439 602', reference: 'T-DUP-2' });
    expect(sameIban.response.status).toBe(409);
    expect(sameIban.error!.error).toEqual(duplicate('/iban'));

    const sameReference = await create({ ...priya, iban: 'AE680260001015333439603', reference: 'T-DUP-1' });
    expect(sameReference.error!.error).toEqual(duplicate('/reference'));

    const account = { ...priya, iban: undefined, swiftBic: undefined, accountNumber: '5550001', bankCode: 'HDFC0000123' };
    await created({ ...account, reference: 'T-DUP-3' });
    const sameAccount = await create({ ...account, reference: 'T-DUP-4' });
    expect(sameAccount.error!.error).toEqual(duplicate('/accountNumber'));

    const second = await created({ ...priya, iban: 'AE410260001015333439604', reference: 'T-DUP-5' });
    const patched = await customer().PATCH('/v1/customers/beneficiaries/{beneficiaryId}', { ...byId(second.id), body: { iban: first.iban! } });
    expect(patched.response.status).toBe(409);
    expect(patched.error!.error).toEqual(duplicate('/iban'));
    expect(JSON.stringify(patched.error)).not.toMatch(/unique|constraint|Key \(/i);
    expect((await customer().GET('/v1/customers/beneficiaries/{beneficiaryId}', byId(second.id))).data!.data).toEqual(second);

    // An inactive beneficiary still holds its account (the message says to reactivate it).
    await customer().DELETE('/v1/customers/beneficiaries/{beneficiaryId}', byId(first.id));
    const onInactive = await create({ ...priya, iban: first.iban!, reference: 'T-DUP-6' });
    expect(onInactive.error!.error).toEqual(duplicate('/iban'));
  });

  it('two concurrent creates of the same account: one 201, one 409 (the unique index decides)', async () => {
    const body = { ...priya, iban: 'AE300260001015333439608', reference: undefined };
    const answers = await Promise.all([create(body), create(body), create(body)]);
    expect(answers.map((a) => a.response.status).sort()).toEqual([201, 409, 409]);
    for (const loser of answers.filter((a) => a.response.status === 409)) {
      expect(loser.error!.error).toEqual(duplicate('/iban'));
    }
  });

  it('another customer may hold the same IBAN and reference', async () => {
    const mine = await created({ ...priya, iban: 'AE140260001015333439605', reference: 'T-SHARED' });
    const theirs = await otherCustomer().POST('/v1/customers/beneficiaries', { body: { ...priya, iban: mine.iban!, reference: 'T-SHARED' } });
    expect(theirs.response.status).toBe(201);
  });
});

describe("another customer's beneficiary, an admin", () => {
  it('is 404 NOT_FOUND on every route for another customer', async () => {
    const theirs = ids.beneficiaryB1;
    const answers = [
      await customer().GET('/v1/customers/beneficiaries/{beneficiaryId}', byId(theirs)),
      await customer().PATCH('/v1/customers/beneficiaries/{beneficiaryId}', { ...byId(theirs), body: { active: true } }),
      await customer().DELETE('/v1/customers/beneficiaries/{beneficiaryId}', byId(theirs)),
    ];
    for (const answer of answers) {
      expect(answer.response.status).toBe(404);
      expect(answer.error!.error).toEqual({ code: 'NOT_FOUND', message: expect.any(String) });
    }
    const listed = await customer().GET('/v1/customers/beneficiaries', { params: { query: { limit: 100 } } });
    expect(listed.data!.data.items.map((b) => b.id)).not.toContain(theirs);
    const still = await otherCustomer().GET('/v1/customers/beneficiaries/{beneficiaryId}', byId(theirs));
    expect(still.data!.data.active).toBe(true);
  });

  it('is 403 FORBIDDEN for an admin', async () => {
    const admin = server.as(ids.admin);
    expect((await admin.GET('/v1/customers/beneficiaries')).response.status).toBe(403);
    expect((await admin.POST('/v1/customers/beneficiaries', { body: priya })).error!.error.code).toBe('FORBIDDEN');
  });
});

describe('GET /v1/customers/beneficiaries: pages, filter, search, masking', () => {
  it('pages newest first without repeats, keeps the filters in the cursor and masks bank details', async () => {
    const local = await startTestServer();
    try {
      const client = local.as(ids.userA);
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.GET('/v1/customers/beneficiaries', { params: { query: { limit: 2, ...(cursor && { cursor }) } } });
        expect(page.response.status).toBe(200);
        for (const item of page.data!.data.items) {
          seen.push(item.id);
          if (item.iban) expect(item.iban).toMatch(/^[A-Z]{2}\d{2} \*{4} \*{4} [0-9A-Z]{4}$/);
          if (item.accountNumber) expect(item.accountNumber).toMatch(/^(\S{4} )?\*{4} \*{4}( \S{4})?$/);
        }
        cursor = page.data!.data.nextCursor ?? undefined;
      } while (cursor);
      // Customer A's six beneficiaries of the test world, each once.
      expect(new Set(seen).size).toBe(6);
      expect(seen).toHaveLength(6);

      const inactive = await client.GET('/v1/customers/beneficiaries', { params: { query: { active: false } } });
      expect(inactive.data!.data.items.map((b) => b.id)).toEqual([ids.beneficiaryAInactive]);
      const active = await client.GET('/v1/customers/beneficiaries', { params: { query: { active: true, limit: 100 } } });
      expect(active.data!.data.items).toHaveLength(5);

      const search = await client.GET('/v1/customers/beneficiaries', { params: { query: { q: 'ONE' } } });
      expect(search.data!.data.items.map((b) => b.id)).toEqual([ids.beneficiaryA1]);
      const wildcard = await client.GET('/v1/customers/beneficiaries', { params: { query: { q: '%' } } });
      expect(wildcard.data!.data.items).toEqual([]);

      const first = await client.GET('/v1/customers/beneficiaries', { params: { query: { limit: 1, active: true } } });
      const wrongFilter = await client.GET('/v1/customers/beneficiaries', { params: { query: { cursor: first.data!.data.nextCursor! } } });
      expect(wrongFilter.response.status).toBe(400);
      expect(wrongFilter.error!.error).toEqual({ code: 'VALIDATION_ERROR', message: expect.any(String), field: 'cursor' });
      const garbage = await client.GET('/v1/customers/beneficiaries', { params: { query: { cursor: 'not-a-cursor' } } });
      expect(garbage.error!.error).toEqual({ code: 'VALIDATION_ERROR', message: expect.any(String), field: 'cursor' });
    } finally {
      await local.close();
    }
  });
});

describe('beneficiaries and payroll requests', () => {
  it('a created beneficiary can be paid; an edit never changes an existing snapshot; deactivated ones are refused until reactivated', async () => {
    const made = await created({ ...priya, iban: 'AE840260001015333439606', reference: 'T-PAY-1' });
    const { created: request } = await estimateAndCreate(customer(), [{ beneficiaryId: made.id, amount: '100', amountCurrencyType: 'PAYROLL' }]);
    expect(request.response.status, JSON.stringify(request.error)).toBe(201);
    const requestId = request.data!.data.id;
    const snapshot = request.data!.data.amountSplitDetails[0]!.beneficiarySnapshot;
    expect(snapshot).toEqual({
      id: made.id,
      firstName: 'Priya',
      lastName: 'Nair',
      displayName: 'Priya Nair',
      type: 'INDIVIDUAL',
      nationality: 'IN',
      bankName: 'Emirates NBD',
      iban: 'AE840260001015333439606',
      swiftBic: 'EBILAEAD',
      reference: 'T-PAY-1',
    });

    await customer().PATCH('/v1/customers/beneficiaries/{beneficiaryId}', {
      ...byId(made.id),
      body: { firstName: 'Pria', displayName: 'Pria Nair', bankName: 'Mashreq', iban: 'AE570260001015333439607' },
    });
    await customer().DELETE('/v1/customers/beneficiaries/{beneficiaryId}', byId(made.id));
    const read = await customer().GET('/v1/customers/payroll/requests/{requestId}', { params: { path: { requestId } } });
    expect(read.data!.data.amountSplitDetails[0]!.beneficiarySnapshot).toEqual(snapshot);

    const estimate = payrollBodies([{ beneficiaryId: made.id, amount: '100', amountCurrencyType: 'PAYROLL' }]).estimate;
    const refused = await customer().POST('/v1/customers/payroll/estimate', { body: estimate });
    expect(refused.response.status).toBe(404);
    expect(refused.error!.error.code).toBe('NOT_FOUND');

    await customer().PATCH('/v1/customers/beneficiaries/{beneficiaryId}', { ...byId(made.id), body: { active: true } });
    const accepted = await customer().POST('/v1/customers/payroll/estimate', { body: estimate });
    expect(accepted.response.status).toBe(200);
  });

  it('a beneficiary deactivated between the estimate and the creation: 404 naming it, nothing written, the feeHash still usable once reactivated', async () => {
    const made = await created({ ...priya, iban: 'AE840260001015333439606', reference: 'T-PAY-2' });
    const bodies = payrollBodies([{ beneficiaryId: made.id, amount: '100', amountCurrencyType: 'PAYROLL' }]);
    const estimated = await customer().POST('/v1/customers/payroll/estimate', { body: bodies.estimate });
    expect(estimated.response.status).toBe(200);
    const feeHash = estimated.data!.data.feeHash;
    const before = await customer().GET('/v1/customers/payroll/requests', { params: { query: { limit: 100 } } });

    await customer().DELETE('/v1/customers/beneficiaries/{beneficiaryId}', byId(made.id));
    const refused = await customer().POST('/v1/customers/payroll/requests', { body: bodies.create(feeHash) });
    expect(refused.response.status).toBe(404);
    expect(refused.error!.error).toEqual({ code: 'NOT_FOUND', message: expect.any(String) });
    const after = await customer().GET('/v1/customers/payroll/requests', { params: { query: { limit: 100 } } });
    expect(after.data!.data.items).toEqual(before.data!.data.items);

    await customer().PATCH('/v1/customers/beneficiaries/{beneficiaryId}', { ...byId(made.id), body: { active: true } });
    const accepted = await customer().POST('/v1/customers/payroll/requests', { body: bodies.create(feeHash) });
    expect(accepted.response.status).toBe(201);
    expect(accepted.data!.data.amountSplitDetails.map((split) => split.beneficiaryId)).toEqual([made.id]);
  });
});
