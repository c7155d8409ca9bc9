/**
 * State a test needs, made the way the product makes it: through the API (the typed client, so a
 * spec change breaks these builders where it breaks a client) or through a world file (the
 * product's reference data, loaded by the world loader as `npm run seed` loads it). No SQL here:
 * a schema change breaks the store's tests, not the tests that only need a beneficiary renamed.
 *
 * What the product cannot make (what the simulated processor or bank does, what only a crash or an
 * earlier release leaves) has helpers of its own, named after that event: crashWindows.ts,
 * earlierReleases.ts.
 */
import { composeIBAN } from 'ibantools';
import { expect } from 'vitest';
import type { PayrollClient, components } from '../../packages/client/src/index.js';
import type { World } from '../../src/world/types.js';
import { testWorld } from '../fixtures/world.js';

type Schemas = components['schemas'];

/** PATCH a beneficiary of the client's customer (absent fields keep their value, null removes one); asserts the 200. */
export async function updateBeneficiary(
  client: PayrollClient,
  beneficiaryId: string,
  patch: Schemas['UpdateBeneficiaryRequest'],
): Promise<Schemas['Beneficiary']> {
  const { data, error, response } = await client.PATCH('/v1/customers/beneficiaries/{beneficiaryId}', { params: { path: { beneficiaryId } }, body: patch });
  expect(response.status, JSON.stringify(error)).toBe(200);
  return data!.data;
}

let accountsOpened = 0;

/**
 * The body of a new beneficiary: an individual at an Emirati bank, with a valid IBAN no other
 * beneficiary made in this process has (so never a 409 DUPLICATE_BENEFICIARY), and `changes`.
 */
export function beneficiaryBody(changes: Partial<Schemas['CreateBeneficiaryRequest']> = {}): Schemas['CreateBeneficiaryRequest'] {
  accountsOpened += 1;
  const iban = composeIBAN({ countryCode: 'AE', bban: `03399${String(accountsOpened).padStart(14, '0')}` })!;
  return { type: 'INDIVIDUAL', firstName: 'Noor', lastName: `Account${accountsOpened}`, nationality: 'AE', bankName: 'Mashreq', iban, ...changes };
}

/**
 * A beneficiary whose bank account the simulated bank reports closed: its reference starts with
 * FAIL, so every payout to it bounces with "Beneficiary account closed" (src/adapters/processor/rails.ts).
 */
export const closedAccountBeneficiary = (reference = 'FAIL-CLOSED') => beneficiaryBody({ firstName: 'Closed', reference });

/** Adds a beneficiary to the client's customer (POST /v1/customers/beneficiaries); asserts the 201 and returns its id. */
export async function addBeneficiary(client: PayrollClient, body: Schemas['CreateBeneficiaryRequest'] = beneficiaryBody()): Promise<string> {
  const { data, error, response } = await client.POST('/v1/customers/beneficiaries', { body });
  expect(response.status, JSON.stringify(error)).toBe(201);
  return data!.data.id;
}

/** The admin records money arriving in a customer's account currency (a FUNDING journal entry); asserts the 201. */
export async function fundAccount(admin: PayrollClient, accountCurrencyId: string, amount: string, reference = 'WIRE TEST'): Promise<Schemas['Funding']> {
  const { data, error, response } = await admin.POST('/v1/admin/account-currencies/{accountCurrencyId}/fundings', {
    params: { path: { accountCurrencyId } },
    body: { amount, reference },
  });
  expect(response.status, JSON.stringify(error)).toBe(201);
  return data!.data;
}

/** Registers a webhook endpoint of the client's customer; asserts the 201 and returns its id. */
export async function registerWebhookEndpoint(
  client: PayrollClient,
  url: string,
  eventTypes: Schemas['WebhookEventType'][] = ['payroll_request.status_changed'],
): Promise<string> {
  const { data, error, response } = await client.POST('/v1/customers/webhook-endpoints', { body: { url, eventTypes } });
  expect(response.status, JSON.stringify(error)).toBe(201);
  return data!.data.id;
}

/** Deletes every webhook endpoint of the client's customer: their pending deliveries are abandoned with them. */
export async function deleteEveryWebhookEndpoint(client: PayrollClient): Promise<void> {
  for (;;) {
    const { data } = await client.GET('/v1/customers/webhook-endpoints', {});
    const endpoints = data!.data.items;
    if (endpoints.length === 0) return;
    for (const { id: endpointId } of endpoints) {
      const { response } = await client.DELETE('/v1/customers/webhook-endpoints/{endpointId}', { params: { path: { endpointId } } });
      expect(response.status).toBe(200);
    }
  }
}

type WorldCustomer = World['customers'][number];
type WorldAccount = World['accounts'][number];
type WorldBeneficiary = World['beneficiaries'][number];

/** What a world file may hold instead of the test world's rows: fields of some rows changed (by id), more users and beneficiaries. */
export interface WorldChanges {
  customers?: Record<string, Partial<WorldCustomer>>;
  accounts?: Record<string, Partial<WorldAccount>>;
  beneficiaries?: Record<string, Partial<WorldBeneficiary>>;
  moreUsers?: World['users'];
  moreBeneficiaries?: World['beneficiaries'];
}

/**
 * `world` (the test world unless given) as a world file with `changes` would have it, for
 * `startTestServer({ world })` or `freshDatabase(world)`: the loader checks and loads it as it
 * loads any world (`npm run seed`). The database is then not cloned from the test world's
 * template, which takes a little longer.
 */
export function worldWith(changes: WorldChanges, world: World = testWorld): World {
  const changed = <T extends { id: string }>(rows: T[], byId: Record<string, Partial<T>> = {}) => rows.map((row) => ({ ...row, ...byId[row.id] }));
  return {
    ...world,
    customers: changed(world.customers, changes.customers),
    accounts: changed(world.accounts, changes.accounts),
    users: [...world.users, ...(changes.moreUsers ?? [])],
    beneficiaries: [...changed(world.beneficiaries, changes.beneficiaries), ...(changes.moreBeneficiaries ?? [])],
  };
}
