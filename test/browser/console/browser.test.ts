// The console in a real browser (Debian's Chromium through playwright-core), on the real app and
// the demo world: an admin, a customer and her approver take a payroll from a CSV file to
// COMPLETED through the console alone, the worker running beside it as it does in `npm start`.
// On the way: a file with bad rows shows each problem the API lists, a quote outside the tolerance
// shows the API's own message, and every page passes axe with no serious or critical violation,
// screenshotted at 1280 and 390 px into test-results/console/ (docs/console.md shows them).
import { mkdirSync, readFileSync } from 'node:fs';
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bankMessageApplier } from '../../../src/usecases/bank/applyBankMessage.js';
import { executePendingWork } from '../../../src/usecases/payroll/execution.js';
import { entry, message, report } from '../../support/bankBooks.js';
import { ensureConsole, inRepo } from '../../support/build.js';
import { waitFor } from '../../support/polling.js';
import { hasChromium, launchChromium, warnIfNoChromium } from '../../support/chromium.js';
import { TEST_ENV, type TestServer, startTestServer, testConfig } from '../../support/server.js';
import { beneficiaryBody } from '../../support/builders.js';
import { loadConfig } from '../../../src/config/config.js';
import { workerFor } from '../../support/worker.js';

warnIfNoChromium('console browser test');

const SHOTS = inRepo('test-results', 'console');
const ACME = '7b1e0002-0000-4000-8000-000000000001';
const OMAR = '7b1e0003-0000-4000-8000-000000000003';
const DANA = '7b1e0003-0000-4000-8000-000000000001';
const RANIA = '7b1e0003-0000-4000-8000-000000000004';
const ACME_USD = '7b1e0005-0000-4000-8000-000000000001';
const PARTNER_AED = '7b1e0005-0000-4000-8000-000000000004';
const PRIYA = '7b1e0006-0000-4000-8000-000000000001';
const GOOD_CSV = 'beneficiaryReference,amount,amountCurrencyType,purposeCode\nACME-EMP-1001,1000.00,SOURCE,SAL\nACME-EMP-1002,2000.00,PAYROLL,SAL\n';
const BAD_CSV =
  'beneficiaryReference,amount,amountCurrencyType,purposeCode\nACME-EMP-1001,1000.00,SOURCE,SAL\nACME-EMP-9999,10.00,SOURCE,SAL\nACME-EMP-1002,12.345,SOURCE,SAL\n';

let server: TestServer;
let browser: Browser;
let working = true;
let workerLoop: Promise<void>;
/** Every address a console page asked for and got 404 (a missing favicon would be one on every load). */
const notFound: string[] = [];

/** The worker, as `npm start` runs it in-process: a pass whenever the last one ends. */
async function runWorker(): Promise<void> {
  const deps = workerFor(server);
  while (working) {
    // The idle worker's pause between passes, as the real loop's WORKER_POLL_MS: no assertion waits on it.
    if ((await executePendingWork(deps)) === 0) await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

beforeAll(async () => {
  if (!hasChromium) return;
  const dir = ensureConsole();
  const world = JSON.parse(readFileSync(inRepo('worlds', 'demo.json'), 'utf8')) as unknown;
  server = await startTestServer({ world, config: { ...testConfig, console: { ...testConfig.console, dir } } });
  workerLoop = runWorker();
  browser = await launchChromium();
  console.log(`console browser test: Chromium ${browser.version()}`);
  mkdirSync(SHOTS, { recursive: true });
}, 120_000);
afterAll(async () => {
  working = false;
  await workerLoop;
  await browser?.close();
  await server?.close();
});

/** A new browser (its own memory: its own signed-in user) opened at a console address, signed in as `name`. */
async function openAs(name: string, path: string, on: TestServer = server): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  // A shared two-core machine runs these: every wait of Playwright's is given a minute.
  context.setDefaultTimeout(60_000);
  const page = await context.newPage();
  page.on('response', (response) => {
    if (response.status() === 404) notFound.push(response.url());
  });
  await page.goto(`${on.baseUrl}/console${path}`);
  await signIn(page, name);
  return page;
}

async function signIn(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: `Sign in as ${name}` }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
}

const started = Date.now();

/** An amount as the console shows it: the API's digits, grouped by thousands. */
function grouped(value: string): string {
  const [whole = '', fraction] = value.split('.');
  return whole.replace(/\B(?=(\d{3})+$)/g, ',') + (fraction === undefined ? '' : `.${fraction}`);
}

/** No serious or critical axe violation; screenshots at 1280 and 390 px. */
async function check(page: Page, name: string): Promise<void> {
  console.log(`console browser test: ${name} at ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const { violations } = await new AxeBuilder({ page }).analyze();
  const serious = violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  expect(
    serious.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`),
    name,
  ).toEqual([]);
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    // Nothing makes the page wider than the screen: a wide table scrolls in its own box.
    await expect
      .poll(() => page.evaluate(() => document.scrollingElement!.scrollWidth - window.innerWidth), { timeout: 30_000, message: name })
      .toBeLessThanOrEqual(0);
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** The request's (or exception's) status as the API names it; the page shows it in words. */
const statusOf = (page: Page) => page.getByTestId('status').getAttribute('data-status');

/** Waits for the request's status, refreshing now and then as a reader would (the page polls every 30 s). */
async function waitForStatus(page: Page, wanted: string): Promise<void> {
  await expect
    .poll(
      async () => {
        const status = await statusOf(page);
        const refresh = page.getByRole('button', { name: 'Refresh now' });
        // The page re-renders as it polls: a click that lands on a replaced button is simply tried again next turn.
        if (status !== wanted && (await refresh.isVisible())) await refresh.click({ timeout: 5_000 }).catch(() => undefined);
        return status;
      },
      { timeout: 120_000, interval: 300 },
    )
    .toBe(wanted);
}

/** A part's text with its white space (the no-break space between an amount and its currency too) as single spaces. */
async function textOf(locator: Locator): Promise<string> {
  return ((await locator.textContent()) ?? '').replace(/\s+/g, ' ');
}

interface Quote {
  exchangeRate: string;
  totalAmount: string;
  receivedAmount: string;
  debitedAmount: string;
  adjustmentAmount: string;
}

/** The customer sees the quote — its rate, total, what comes back to her account — above the button that accepts it. */
async function seesTheQuoteBeforeAccepting(page: Page, quote: Quote): Promise<void> {
  const offer = page.getByRole('region', { name: 'The quote', exact: true });
  const accept = page.getByRole('button', { name: 'Accept the quote' });
  await accept.waitFor();
  const text = await textOf(offer);
  expect(text).toContain(`${quote.exchangeRate} USD→AED`);
  expect(text).toContain(`Total at the quote${grouped(quote.totalAmount)} USD`);
  expect(text).toContain(`Debited at creation${grouped(quote.debitedAmount)} USD`);
  expect(text).toContain(`Beneficiaries receive${grouped(quote.receivedAmount)} AED`);
  expect(text).toContain('Valid until');
  // 3.67 AED a dollar is better than the estimate's rate: the difference comes back at accepting.
  expect(quote.adjustmentAmount.startsWith('-')).toBe(true);
  expect(text).toContain(`Comes back to your account on accepting${grouped(quote.adjustmentAmount.slice(1))} USD`);
  const quoteFirst = await offer.evaluate(
    (section, button) => Boolean(button && section.compareDocumentPosition(button) & Node.DOCUMENT_POSITION_FOLLOWING),
    await accept.elementHandle(),
  );
  expect(quoteFirst).toBe(true);
}

/** Failing a request is drawn apart from the work and in another colour, and asks before it acts; "No" leaves the request as it was. */
async function failingLooksRiskyAndAsksFirst(page: Page): Promise<void> {
  const stop = page.getByRole('region', { name: 'Stop this request' });
  const fail = stop.getByRole('button', { name: 'Fail this payroll request' });
  const record = page.getByRole('button', { name: 'Record the FX exchange' });
  const colour = (button: Locator) => button.evaluate((element) => getComputedStyle(element).backgroundColor);
  expect(await colour(fail)).not.toBe(await colour(record));
  expect(await stop.getByRole('button', { name: 'Record the FX exchange' }).count()).toBe(0);
  await stop.getByLabel('Reason for failing').fill('Testing the confirmation');
  await fail.click();
  const confirm = page.getByRole('group', { name: 'Confirm: Fail this payroll request' });
  await confirm.getByRole('button', { name: 'Yes, fail this payroll request' }).waitFor();
  await confirm.getByRole('button', { name: 'No, keep it' }).click();
  await fail.waitFor();
  expect(await statusOf(page)).toBe('EXECUTING');
}

/** At 390 px each account currency is a card: its balance, what is available and its statement's link all on the screen, uncut. */
async function accountsFitAt390(page: Page): Promise<void> {
  await page.setViewportSize({ width: 390, height: 900 });
  const rows = page
    .getByRole('table', { name: 'Your account currencies' })
    .getByRole('row')
    .filter({ has: page.getByRole('cell') });
  await expect.poll(() => rows.count(), { timeout: 60_000 }).toBeGreaterThan(0);
  for (const row of await rows.all()) {
    for (const part of [row.getByRole('cell').nth(2), row.getByRole('cell').nth(3), row.getByRole('link', { name: /^Statement of / })]) {
      const box = (await part.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(390);
      expect(await part.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
    }
    expect(await textOf(row.getByRole('cell').nth(3))).toMatch(/^\d{1,3}(,\d{3})*(\.\d+)? [A-Z]+$/);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

/** The page names its icon, and the service serves it: no browser asks for a /favicon.ico that is not there. */
async function servesItsIcon(page: Page): Promise<void> {
  const href = await page.locator('link[rel="icon"]').getAttribute('href');
  expect(href).toMatch(/^\/console\/assets\//);
  const answer = await page.request.get(new URL(href!, page.url()).href);
  expect(answer.status()).toBe(200);
  expect(answer.headers()['content-type']).toContain('image/svg+xml');
}

async function chooseOption(page: Page, label: string, startsWith: string): Promise<void> {
  const select = page.getByLabel(label);
  // The options come with the accounts, read after the page shows: wait for the one wanted.
  const optionValue = () =>
    select.evaluate(
      (element, prefix) => [...(element as HTMLSelectElement).options].find((option) => option.text.startsWith(prefix))?.value ?? null,
      startsWith,
    );
  await expect.poll(optionValue, { timeout: 20_000 }).not.toBeNull();
  await select.selectOption((await optionValue())!);
}

async function upload(
  page: Page,
  csv: string,
): Promise<{ success: boolean; data?: { totalAmount: string }; error?: { details?: { row?: number; column?: string; message: string }[] } }> {
  await page.getByLabel('Payroll CSV file').setInputFiles({ name: 'payroll.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  const answer = page.waitForResponse((response) => response.url().includes('/v1/customers/payroll/estimate'));
  await page.getByRole('button', { name: 'Estimate the fees' }).click();
  return (await answer).json();
}

describe.skipIf(!hasChromium)('the console in Chromium', () => {
  it('takes a payroll from a CSV file to COMPLETED: admin, customer and approver', async () => {
    const admin = await openAs('Omar Nasser', '/customers');
    await admin.getByLabel('Customer id').fill(ACME);
    await admin.getByLabel("Payroll requests need a second person's approval (four-eyes)").check();
    await admin.getByRole('button', { name: 'Save the settings' }).click();
    await expect.poll(() => admin.getByText('Rania Saleh').count(), { timeout: 60_000 }).toBeGreaterThan(0);
    await check(admin, 'admin-customer-settings');

    const dana = await openAs('Dana Haddad', '/payroll/new');
    const template = dana.waitForEvent('download');
    await dana.getByRole('button', { name: 'Download the CSV template' }).click();
    expect(readFileSync((await (await template).path())!, 'utf8')).toMatch(/^beneficiaryReference,/);
    await chooseOption(dana, 'Pay from (source account currency)', 'USD ');
    await chooseOption(dana, 'Pay in (payroll account currency)', 'AED');
    const refused = await upload(dana, BAD_CSV);
    expect(refused.error?.details?.length).toBe(2);
    const problems = dana.getByRole('table', { name: /Problems/ });
    for (const detail of refused.error!.details!) {
      const row = problems.getByRole('row').filter({ hasText: detail.message });
      await expect.poll(() => row.count(), { timeout: 60_000 }).toBe(1);
      expect(await row.getByRole('cell').nth(0).textContent()).toBe(String(detail.row));
      expect(await row.getByRole('cell').nth(1).textContent()).toBe(detail.column);
    }
    await check(dana, 'customer-csv-problems');
    const estimate = await upload(dana, GOOD_CSV);
    await dana
      .getByText(`${grouped(estimate.data!.totalAmount)} USD`)
      .first()
      .waitFor();
    await check(dana, 'customer-estimate');
    await dana.getByRole('button', { name: 'Create the payroll request' }).click();
    await dana.waitForURL(/\/console\/requests\/[0-9a-f-]{36}$/);
    const requestPath = new URL(dana.url()).pathname.replace('/console', '');
    await waitForStatus(dana, 'AWAITING_APPROVAL');

    const rania = await openAs('Rania Saleh', requestPath);
    await rania.getByRole('button', { name: 'Approve this payroll request' }).click();
    await waitForStatus(rania, 'PENDING');
    await check(rania, 'approver-request');

    await admin.getByRole('link', { name: 'Queue' }).click();
    // Ids made together share their start: the queue names a request by the end of its id, beside its customer.
    const link = admin.getByRole('link', { name: `Request ${requestPath.slice(-12)}` });
    await link.waitFor();
    const queued = admin.getByRole('row').filter({ has: link });
    await expect.poll(() => queued.getByRole('link', { name: 'Acme Trading LLC' }).count(), { timeout: 60_000 }).toBe(1);
    await check(admin, 'admin-queue');
    await link.click();
    await admin.getByLabel('Quoted exchange rate').fill('9.0000');
    const quoteAnswer = admin.waitForResponse((response) => response.url().endsWith('/quote'));
    await admin.getByRole('button', { name: 'Provide the quote' }).click();
    const refusal = (await (await quoteAnswer).json()) as { error: { code: string; message: string } };
    await expect.poll(() => admin.getByRole('alert').textContent(), { timeout: 60_000 }).toContain(`${refusal.error.code}: ${refusal.error.message}`);
    await check(admin, 'admin-quote-refused');
    await admin.getByLabel('Quoted exchange rate').fill('3.6700');
    const quoted = admin.waitForResponse((response) => response.url().endsWith('/quote'));
    await admin.getByRole('button', { name: 'Provide the quote' }).click();
    const { quote } = ((await (await quoted).json()) as { data: { quote: Quote } }).data;
    await waitForStatus(admin, 'QUOTE_PROVIDED');

    await dana.reload();
    await signIn(dana, 'Dana Haddad');
    await dana.setViewportSize({ width: 390, height: 900 });
    await seesTheQuoteBeforeAccepting(dana, quote);
    await dana.setViewportSize({ width: 1280, height: 900 });
    await check(dana, 'customer-quote');
    await dana.getByRole('button', { name: 'Accept the quote' }).click();
    await expect.poll(() => statusOf(dana), { timeout: 60_000 }).not.toBe('QUOTE_PROVIDED');
    await check(dana, 'customer-quote-accepted');

    await admin.reload();
    await signIn(admin, 'Omar Nasser');
    await waitForStatus(admin, 'EXECUTING');
    await failingLooksRiskyAndAsksFirst(admin);
    // The FX exchange can be recorded once the worker has completed both legs; until then the API
    // refuses it (409) and the admin, as a person would, tries again.
    await expect
      .poll(
        async () => {
          await admin.getByLabel('Exchange rate obtained').fill('3.665');
          const answer = admin.waitForResponse((response) => response.url().endsWith('/fx-exchange'));
          await admin.getByRole('button', { name: 'Record the FX exchange' }).click();
          return (await answer).status();
        },
        { timeout: 120_000, interval: 500 },
      )
      .toBe(200);
    await waitForStatus(dana, 'COMPLETED');
    // Once paid, the page says what the payouts paid (every one exactly its quoted amount), and to whom.
    await expect.poll(() => textOf(dana.getByRole('main')), { timeout: 60_000 }).toContain(`Paid to beneficiaries${grouped(quote.receivedAmount)} AED`);
    expect(await dana.getByText('Beneficiaries receive (estimate)').count()).toBe(0);
    const payouts = dana.getByRole('table', { name: 'Money movements of this request' });
    for (const name of ['Priya Nair', 'Mohammed Al Mansoori']) {
      await expect.poll(() => payouts.getByRole('row').filter({ hasText: name }).filter({ hasText: 'Payout' }).count(), { timeout: 60_000 }).toBe(1);
    }
    await check(dana, 'customer-request-completed');

    await dana.getByRole('link', { name: 'Accounts' }).click();
    await accountsFitAt390(dana);
    await check(dana, 'customer-accounts');
    await dana.getByRole('link', { name: 'Statement of USD' }).first().click();
    await dana.getByRole('table', { name: /Transactions/ }).waitFor();
    await check(dana, 'customer-statement');
    const download = dana.waitForEvent('download');
    await dana.getByRole('button', { name: 'Download the statement as CSV' }).click();
    const csv = readFileSync((await (await download).path())!, 'utf8');
    expect(csv).toContain('PAYROLL_DEBIT');

    await dana.getByRole('link', { name: 'Beneficiaries' }).click();
    await dana.getByRole('table', { name: /Beneficiaries/ }).waitFor();
    await check(dana, 'customer-beneficiaries');
    for (const [name, heading] of [
      ['Rates', 'Exchange rates'],
      ['Bank', 'Bank statements and exceptions'],
    ] as const) {
      await admin.getByRole('link', { name }).click();
      await admin.getByRole('heading', { name: heading, level: 1 }).waitFor();
      await check(admin, `admin-${name.toLowerCase()}`);
    }
    await servesItsIcon(admin);
    expect(notFound).toEqual([]);
  }, 400_000);

  it('opens a bank exception at its own address, keeps it on reload, and resolves it', async () => {
    const booking = message('camt.054', [report([entry('DBIT', '125.00', { endToEndId: 'NOTOURS0000000000000000000000002', reference: 'B-CONSOLE' })])]);
    await bankMessageApplier({ db: server.db, clock: server.clock.now, bookingGraceDays: 3 })(booking, {
      fileName: 'console.xml',
      sha256: 'c'.repeat(64),
      receivedAt: server.clock.now(),
    });
    const listed = await fetch(`${server.baseUrl}/v1/admin/bank/exceptions?status=OPEN&limit=1`, {
      headers: { authorization: `Bearer ${await server.token(OMAR)}` },
    });
    const exceptionId = ((await listed.json()) as { data: { items: { id: string }[] } }).data.items[0]!.id;
    const heading = (page: Page) => page.getByRole('heading', { name: `Bank exception ${exceptionId.slice(0, 8)}`, level: 1 });

    const admin = await openAs('Omar Nasser', `/bank/exceptions/${exceptionId}`);
    await heading(admin).waitFor();
    await expect.poll(() => statusOf(admin), { timeout: 20_000 }).toBe('OPEN');
    await check(admin, 'admin-bank-exception');
    await admin.reload();
    await signIn(admin, 'Omar Nasser');
    await heading(admin).waitFor();
    expect(new URL(admin.url()).pathname).toBe(`/console/bank/exceptions/${exceptionId}`);
    await admin.getByLabel('Resolution note').fill('Not ours: the bank reverses it');
    await admin.getByRole('button', { name: 'Resolve' }).click();
    await expect.poll(() => statusOf(admin), { timeout: 20_000 }).toBe('RESOLVED');
    await admin.getByText('Not ours: the bank reverses it', { exact: false }).waitFor();
    expect(await admin.getByRole('button', { name: 'Resolve' }).count()).toBe(0);
  });

  it('cancels and rejects through their confirmation at 390 px, and the API agrees', async () => {
    const admin = server.as(OMAR);
    const dana = server.as(DANA);
    const settings = await admin.PATCH('/v1/admin/customers/{customerId}/settings', {
      params: { path: { customerId: ACME } },
      body: { requiresPayrollApproval: true },
    });
    expect(settings.response.status).toBe(200);
    const usdBalance = async () => {
      const accounts = (await dana.GET('/v1/customers/accounts')).data!.data.accounts;
      return accounts.flatMap((account) => account.currencies).find((currency) => currency.id === ACME_USD)!.balance;
    };
    const create = async () => {
      const body = { sourceAccountCurrencyId: ACME_USD, payrollAccountCurrencyId: PARTNER_AED };
      const estimated = await dana.POST('/v1/customers/payroll/estimate', {
        body: { ...body, amountSplitDetails: [{ beneficiaryId: PRIYA, amount: '100.00' }] },
      });
      const created = await dana.POST('/v1/customers/payroll/requests', {
        body: { ...body, feeHash: estimated.data!.data.feeHash, amountSplitDetails: [{ beneficiaryId: PRIYA, amount: '100.00', purposeCode: 'SAL' }] },
      });
      expect(created.response.status).toBe(201);
      return created.data!.data.id;
    };
    const status = async (requestId: string) =>
      (await dana.GET('/v1/customers/payroll/requests/{requestId}', { params: { path: { requestId } } })).data!.data.status;

    /** On a phone: the danger button and its confirmation are on the screen, "No" keeps the request, "Yes" acts. */
    const confirmAt390 = async (page: Page, reasonLabel: string, act: string, from: string) => {
      await page.setViewportSize({ width: 390, height: 900 });
      const button = page.getByRole('button', { name: act, exact: true });
      const onScreen = async (locator: Locator) => {
        await locator.scrollIntoViewIfNeeded();
        const box = (await locator.boundingBox())!;
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(390);
      };
      await page.getByLabel(reasonLabel).fill('Wrong month');
      await onScreen(button);
      await button.click();
      const confirm = page.getByRole('group', { name: `Confirm: ${act}` });
      const yes = confirm.getByRole('button', { name: `Yes, ${act.charAt(0).toLowerCase()}${act.slice(1)}` });
      await onScreen(yes);
      await onScreen(confirm.getByRole('button', { name: 'No, keep it' }));
      await confirm.getByRole('button', { name: 'No, keep it' }).click();
      await button.waitFor();
      expect(await statusOf(page)).toBe(from);
      await button.click();
      await yes.click();
      await waitForStatus(page, 'CANCELLED');
      expect(await page.evaluate(() => document.scrollingElement!.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    };

    // Rania, the approver, rejects a request awaiting her approval: it ends cancelled, nothing debited.
    const before = await usdBalance();
    const rejected = await create();
    expect(await status(rejected)).toBe('AWAITING_APPROVAL');
    const rania = await openAs('Rania Saleh', `/requests/${rejected}`);
    await confirmAt390(rania, 'Reason for rejecting', 'Reject this payroll request', 'AWAITING_APPROVAL');
    expect(await status(rejected)).toBe('CANCELLED');
    expect(await usdBalance()).toBe(before);

    // Dana cancels an approved request, whose total was debited at creation: the debit comes back.
    const cancelled = await create();
    const approved = await server.as(RANIA).POST('/v1/customers/payroll/requests/{requestId}/approve', { params: { path: { requestId: cancelled } } });
    expect(approved.response.status).toBe(200);
    expect(await status(cancelled)).toBe('PENDING');
    expect(await usdBalance()).not.toBe(before);
    const page = await openAs('Dana Haddad', `/requests/${cancelled}`);
    await confirmAt390(page, 'Reason for cancelling', 'Cancel this payroll request', 'PENDING');
    await check(page, 'customer-request-cancelled');
    expect(await status(cancelled)).toBe('CANCELLED');
    await waitFor('the cancelled debit back on the USD balance', usdBalance, (balance) => balance === before, { deadlineMs: 60_000, everyMs: 200 });
  }, 300_000);

  it('lists screening hits by state with the evidence side by side, and releases and confirms them with a note at 390 px', async () => {
    // A server of its own that screens against the shipped extract (the demo's does not screen).
    const config = loadConfig({ ...TEST_ENV, SANCTIONS_SHIPPED_EXTRACT: 'true' });
    const world = JSON.parse(readFileSync(inRepo('worlds', 'demo.json'), 'utf8')) as unknown;
    const screening = await startTestServer({ world, config: { ...config, console: { ...testConfig.console, dir: ensureConsole() } } });
    try {
      // Dana adds two people the UN lists (FRANCOIS YANGOUVONDA BOZIZE, ERIC BADEGE): each raises an open hit.
      const listed = async (firstName: string, lastName: string, nationality: string) => {
        const created = await screening.as(DANA).POST('/v1/customers/beneficiaries', { body: beneficiaryBody({ firstName, lastName, nationality }) });
        expect(created.data?.data.screening?.status).toBe('HIT');
        return created.data!.data.id;
      };
      const released = await listed('Francois', 'Bozize Yangouvonda', 'CF');
      const confirmed = await listed('Eric', 'Badege', 'CD');
      const hits = (await screening.as(OMAR).GET('/v1/admin/screening/hits', { params: { query: { state: 'OPEN', limit: 50 } } })).data!.data.items;
      const hitOf = (beneficiaryId: string) => hits.find((hit) => hit.beneficiaryId === beneficiaryId)!;
      const [releasedHit, confirmedHit] = [hitOf(released), hitOf(confirmed)];

      const admin = await openAs('Omar Nasser', '/', screening);
      await admin.getByRole('link', { name: 'Screening' }).click();
      await admin.getByRole('heading', { name: 'Sanctions screening hits', level: 1 }).waitFor();
      const card = (hitId: string) => admin.getByRole('region', { name: `Hit ${hitId.slice(0, 8)}` });
      // The evidence side by side: the beneficiary's names beside the entry's.
      const beneficiarySide = card(releasedHit.id).getByRole('definition').first();
      await beneficiarySide.waitFor();
      expect(await card(releasedHit.id).textContent()).toContain('Francois Bozize Yangouvonda');
      expect(await card(releasedHit.id).textContent()).toContain(releasedHit.entry.names[0]!);
      await check(admin, 'admin-screening');

      // At 390 px: the note and both buttons on the screen; release one with a note.
      await admin.setViewportSize({ width: 390, height: 900 });
      const short = releasedHit.id.slice(0, 8);
      await admin.getByLabel(`Decision note for hit ${short}`).fill('Another person: born 1994, checked with the employer');
      for (const name of [`Release hit ${short}`, `Confirm hit ${short}`]) {
        const button = admin.getByRole('button', { name });
        await button.scrollIntoViewIfNeeded();
        const box = (await button.boundingBox())!;
        expect(box.x + box.width).toBeLessThanOrEqual(390);
      }
      await admin.getByRole('button', { name: `Release hit ${short}` }).click();
      await expect.poll(() => card(releasedHit.id).count(), { timeout: 30_000 }).toBe(0);

      const other = confirmedHit.id.slice(0, 8);
      await admin.getByLabel(`Decision note for hit ${other}`).fill('Same person: date and place of birth match');
      await admin.getByRole('button', { name: `Confirm hit ${other}` }).click();
      await expect.poll(() => card(confirmedHit.id).count(), { timeout: 30_000 }).toBe(0);

      // Each is listed under its new state, with its note; the API agrees.
      await admin.getByLabel('Hits in state').selectOption('RELEASED');
      await card(releasedHit.id).getByText('Another person: born 1994', { exact: false }).waitFor();
      await admin.getByLabel('Hits in state').selectOption('CONFIRMED');
      await card(confirmedHit.id).getByText('Same person: date and place of birth match', { exact: false }).waitFor();
      const listedIn = async (state: 'RELEASED' | 'CONFIRMED') =>
        (await screening.as(OMAR).GET('/v1/admin/screening/hits', { params: { query: { state, limit: 50 } } })).data!.data.items.map((hit) => hit.id);
      expect(await listedIn('RELEASED')).toContain(releasedHit.id);
      expect(await listedIn('CONFIRMED')).toContain(confirmedHit.id);
      await admin.context().close();
    } finally {
      await screening.close();
    }
  });

  it('lists a payroll template and its next run on the pay calendar, readable at 390 px', async () => {
    const created = await server.as(DANA).POST('/v1/customers/payroll/templates', {
      body: {
        name: 'Monthly salaries',
        sourceAccountCurrencyId: ACME_USD,
        payrollAccountCurrencyId: PARTNER_AED,
        amountSplitDetails: [{ beneficiaryId: PRIYA, amount: '100.00', purposeCode: 'SAL' }],
        payDateRule: { kind: 'LAST_BUSINESS_DAY' },
      },
    });
    expect(created.response.status, JSON.stringify(created.error)).toBe(201);
    const { nextRun } = created.data!.data;
    const page = await openAs('Dana Haddad', '/');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Pay calendar' }).click();
    await page.getByRole('heading', { name: 'Pay calendar' }).waitFor();
    await page.setViewportSize({ width: 390, height: 900 });
    const row = page.getByRole('table', { name: 'Upcoming payroll runs' }).getByRole('row').filter({ hasText: 'Monthly salaries' });
    await row.waitFor();
    expect(await textOf(row)).toContain('Last business day of the month');
    const payDate = row.getByRole('cell').filter({ hasText: nextRun.payDate });
    for (const part of [row.getByRole('cell').first(), payDate]) {
      const box = (await part.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(390);
    }
    await check(page, 'customer-pay-calendar');
  }, 300_000);
});
