/**
 * The payroll lifecycles the fleet test runs at once, each through the fleet client (so spread over
 * the API instances): estimate → create → admin quote → accept → (worker: debit, move to the bank)
 * → FX record → (worker: payouts) until final. Some cancel before a quote, some are quoted worse
 * than the estimate and refuse (cancel) or accept it (a top-up), some meet an admin's typo first
 * (a quote far from the service's rate, refused), some are failed by the admin while EXECUTING,
 * and some pay beneficiaries whose reference starts with FAIL (the simulated bank bounces them).
 */
import { ids } from '../fixtures/world.js';
import type { PayrollRequest } from '../support/payroll.js';
import { type FleetClient, dataOf, errorCode, pause } from './client.js';

export type Variant = 'complete' | 'cancelBeforeQuote' | 'worseQuoteRefused' | 'worseQuoteAccepted' | 'typoQuote' | 'adminFail';

export interface Plan {
  index: number;
  variant: Variant;
  /** Beneficiary ids with their amounts (AED). */
  entries: Array<{ beneficiaryId: string; amount: string }>;
  /** How many of them bounce (reference FAIL…). */
  failing: number;
  expected: PayrollRequest['status'];
}

export interface Outcome {
  plan: Plan;
  requestId?: string;
  status?: PayrollRequest['status'];
  error?: string;
}

/** The quote an admin gives normally, a worse one (about 3 % under the service's 3.6725), and the FX records that go with them. */
const RATES = { quote: '3.6530', fx: '3.6520', worseQuote: '3.5600', worseFx: '3.5590', typo: '36.5300' };
const FINAL = ['COMPLETED', 'PARTIALLY_COMPLETED', 'FAILED', 'CANCELLED'];
const POLL_MS = 700;

function variantOf(index: number): Variant {
  if (index % 10 === 3) return 'cancelBeforeQuote';
  if (index % 10 === 7) return 'worseQuoteRefused';
  if (index % 10 === 5) return 'worseQuoteAccepted';
  if (index % 20 === 9) return 'typoQuote';
  if (index % 20 === 19) return 'adminFail';
  return 'complete';
}

/** `count` plans over `beneficiaryIds` (`perRequest` each, in order); `isFailing` tells a bouncing beneficiary. */
export function planLifecycles(count: number, perRequest: number, beneficiaryIds: string[], isFailing: (id: string) => boolean): Plan[] {
  return Array.from({ length: count }, (_unused, index) => {
    const mine = beneficiaryIds.slice(index * perRequest, (index + 1) * perRequest);
    const entries = mine.map((beneficiaryId, i) => ({ beneficiaryId, amount: `${200 + index * 7 + i}.${String((index * 13 + i) % 100).padStart(2, '0')}` }));
    const failing = mine.filter(isFailing).length;
    const variant = variantOf(index);
    return { index, variant, entries, failing, expected: expectedStatus(variant, failing, entries.length) };
  });
}

function expectedStatus(variant: Variant, failing: number, total: number): PayrollRequest['status'] {
  if (variant === 'cancelBeforeQuote' || variant === 'worseQuoteRefused') return 'CANCELLED';
  if (variant === 'adminFail' || failing === total) return 'FAILED';
  return failing > 0 ? 'PARTIALLY_COMPLETED' : 'COMPLETED';
}

/** Runs one plan to its end (or `deadline`); never throws: the outcome says what happened. */
export async function runLifecycle(client: FleetClient, plan: Plan, deadline: number): Promise<Outcome> {
  const outcome: Outcome = { plan };
  try {
    outcome.requestId = await create(client, plan);
    await afterCreate(client, plan, outcome.requestId, deadline);
    outcome.status = (await waitFor(client, outcome.requestId, deadline, (r) => FINAL.includes(r.status))).status;
  } catch (error) {
    outcome.error = (error as Error).message;
  }
  return outcome;
}

const key = (plan: Plan, step: string) => `fleet-${plan.index}-${step}`;
const customer = ids.userA;
const admin = ids.admin;

async function create(client: FleetClient, plan: Plan): Promise<string> {
  const pair = { sourceAccountCurrencyId: ids.acAUsd, payrollAccountCurrencyId: ids.acPartnerAed };
  const estimateBody = { ...pair, amountSplitDetails: plan.entries };
  const estimate = dataOf<{ feeHash: string }>(
    await client.call('POST', '/v1/customers/payroll/estimate', customer, estimateBody, key(plan, 'estimate')),
    200,
    'estimate',
  );
  const createBody = { ...pair, feeHash: estimate.feeHash, amountSplitDetails: plan.entries.map((entry) => ({ ...entry, purposeCode: 'SAL' })) };
  const created = dataOf<PayrollRequest>(await client.call('POST', '/v1/customers/payroll/requests', customer, createBody, key(plan, 'create')), 201, 'create');
  return created.id;
}

async function afterCreate(client: FleetClient, plan: Plan, requestId: string, deadline: number): Promise<void> {
  const path = `/v1/customers/payroll/requests/${requestId}`;
  const adminPath = `/v1/admin/payroll/requests/${requestId}`;
  const cancel = () => client.call('POST', `${path}/cancel`, customer, { reason: `fleet ${plan.variant}` }, key(plan, 'cancel'));
  if (plan.variant === 'cancelBeforeQuote') return void dataOf(await cancel(), 200, 'cancel');
  if (plan.variant === 'typoQuote') {
    const typo = await client.call('POST', `${adminPath}/quote`, admin, quoteBody(RATES.typo), key(plan, 'typo-quote'));
    if (typo.status !== 400 || errorCode(typo) !== 'VALIDATION_ERROR')
      throw new Error(`typo quote ${RATES.typo}: expected 400 VALIDATION_ERROR, got ${typo.status} ${typo.text.slice(0, 300)}`);
  }
  const worse = plan.variant === 'worseQuoteRefused' || plan.variant === 'worseQuoteAccepted';
  dataOf(await client.call('POST', `${adminPath}/quote`, admin, quoteBody(worse ? RATES.worseQuote : RATES.quote), key(plan, 'quote')), 200, 'quote');
  if (plan.variant === 'worseQuoteRefused') return void dataOf(await cancel(), 200, 'cancel after a worse quote');
  dataOf(await client.call('POST', `${path}/accept`, customer, undefined, key(plan, 'accept')), 200, 'accept');
  await waitFor(client, requestId, deadline, (r) => legsCompleted(r) || FINAL.includes(r.status));
  if (plan.variant === 'adminFail') {
    return void dataOf(
      await client.call('POST', `${adminPath}/fail`, admin, { reason: 'Fleet test: the FX deal fell through' }, key(plan, 'fail')),
      200,
      'fail',
    );
  }
  const fx = worse ? RATES.worseFx : RATES.fx;
  dataOf(await client.call('POST', `${adminPath}/fx-exchange`, admin, { exchangeRate: fx }, key(plan, 'fx')), 200, 'fx-exchange');
}

const quoteBody = (exchangeRate: string) => ({ exchangeRate, expiresAt: new Date(Date.now() + 3600_000).toISOString() });

/** Both source legs (the processor's debit and the move to the payroll bank) completed: the FX record may come. */
const legsCompleted = (request: PayrollRequest): boolean =>
  ['PROCESSOR_INTERNAL_DEBIT', 'PROCESSOR_TO_BANK'].every((type) => request.transfers.some((t) => t.transferType === type && t.status === 'COMPLETED'));

async function waitFor(client: FleetClient, requestId: string, deadline: number, done: (request: PayrollRequest) => boolean): Promise<PayrollRequest> {
  for (;;) {
    const request = dataOf<PayrollRequest>(await client.call('GET', `/v1/customers/payroll/requests/${requestId}`, customer), 200, 'read');
    if (done(request)) return request;
    if (Date.now() > deadline) throw new Error(`request ${requestId} still ${request.status} at the deadline`);
    await pause(POLL_MS + Math.floor(Math.random() * 300));
  }
}
