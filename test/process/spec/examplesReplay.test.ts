// The spec's examples as an integrator replays them: every request example's curl sample (the
// `x-codeSamples` that scripts/code-samples.mjs writes from it), run by bash as printed, in the order
// of the document, against one fresh `npm start` (the demo world, the real clock, a real process),
// with `$PAYROLL_API` and `$TOKEN` set as the reference's introduction says. The examples form one
// story: a value that an earlier answer generated (a feeHash, a created resource's id) is written in
// the later examples as the earlier response example shows it, and is replaced by the value the
// server really answered (test/support/examples/exampleStory.ts), as a reader copies it from the answer.
// Each example must answer the status of its response example, except:
//  - ALTERNATIVES: operations that are two ends of one story (record the FX exchange, or fail the
//    request): whichever runs against the state the other left answers its own documented result;
//  - NEEDS_STATE: operations whose example needs state that no example before it can leave; each says
//    which in its description ("## Replaying the example"), where a reader of the reference sees it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSpec } from '../../reliability/spec.js';
import { type Service, freePort, killLeftovers, startService, stop } from '../../support/processes.js';
import { hs256Token } from '../../support/tokens.js';
import { DEMO_WORLD, type ExampleCase, loadExampleSpec } from '../../support/examples/examples.js';
import { type Answer, type Operation, ValueBindings, curlSamplesByCase, documentedCodes, runCurl } from '../../support/examples/exampleStory.js';

/** Operations whose example cannot replay in document order, and the state it needs. */
const NEEDS_STATE: Record<string, string> = {
  approvePayrollRequest: 'a payroll request in AWAITING_APPROVAL',
  rejectPayrollRequest: 'a payroll request in AWAITING_APPROVAL',
  resendBankBatch: 'a file the bank has not answered',
  failBankBatchPayouts: 'a file the bank has not answered',
  resolveBankException: 'an open bank exception, which only the bank’s books create',
  getBankException: 'a bank exception, which only the bank’s books create',
  releaseScreeningHit: 'an open hit, which only a screening raises',
  confirmScreeningHit: 'an open hit, which only a screening raises',
};

/** Huda Al Zarooni of Falcon Facilities Management, the demo world's WPS employer (docs/wps.md). */
const WPS_EMPLOYER_USER = '7b1e0003-0000-4000-8000-000000000005';

/** Two ends of one story: exactly one answers its 2xx, the other its documented refusal. */
const ALTERNATIVES = ['recordFxExchange', 'failPayrollRequest'];

const userWith = (role: string, permission?: string) =>
  DEMO_WORLD.users.find((user) => user.role === role && (permission ? user.permissions?.includes(permission) : !user.permissions))!.id;

let service: Service;
let operations: Operation[];
let cases: ExampleCase[];
const scratch = mkdtempSync(join(tmpdir(), 'payroll-curl-'));
const answers: Array<{ example: ExampleCase; answer: Answer }> = [];

beforeAll(async () => {
  const port = await freePort();
  service = startService(port, { DATA_DIR: 'memory://', SIMULATED_SETTLEMENT_MS: '200' });
  const raw = (await loadSpec()).raw as unknown as { paths: Record<string, Record<string, Operation>> };
  operations = Object.values(raw.paths).flatMap((item) => ['get', 'post', 'put', 'patch', 'delete'].flatMap((method) => (item[method] ? [item[method]] : [])));
  cases = (await loadExampleSpec()).cases;
  const samples = curlSamplesByCase(raw, cases);
  const tokens = {
    customer: await hs256Token({ sub: userWith('customer') }),
    approver: await hs256Token({ sub: userWith('customer', 'approver') }),
    admin: await hs256Token({ sub: userWith('admin') }),
    // The WPS employer's own user (Huda Al Zarooni of Falcon): its examples pay Falcon's employees.
    wpsEmployer: await hs256Token({ sub: WPS_EMPLOYER_USER }),
  };
  // curl reads its options from $CURL_HOME/.curlrc: the status and the request id after the body,
  // so the samples run exactly as printed.
  writeFileSync(join(scratch, '.curlrc'), 'write-out = "\\n%header{x-request-id}\\n%{http_code}"\n');
  await service.listening;
  // The WPS employer's examples are a story of their own: the ids they learn never replace the main story's.
  const bindings = new ValueBindings();
  const wpsBindings = new ValueBindings();
  for (const [index, example] of cases.entries()) {
    const wps = example.name.endsWith('WpsRequest');
    const story = wps ? wpsBindings : bindings;
    const token =
      example.role === 'admin'
        ? tokens.admin
        : wps
          ? tokens.wpsEmployer
          : example.operationId.match(/^(approve|reject)Payroll/)
            ? tokens.approver
            : tokens.customer;
    const source = story.apply(samples[index]!);
    const answer = await runCurl(source, { PAYROLL_API: `http://127.0.0.1:${port}`, TOKEN: token, CURL_HOME: scratch });
    if (answer.status < 300) story.learn(example.expected?.value, answer.json);
    answers.push({ example, answer });
    // EXAMPLES_DUMP=1: each example's status, in the order replayed.
    if (process.env.EXAMPLES_DUMP) console.log(`${answer.status} ${example.operationId} ${example.name} ${answer.body.slice(0, 200)}`);
  }
}, 600_000);

afterAll(async () => {
  if (service) await stop(service.child);
  killLeftovers();
  rmSync(scratch, { recursive: true, force: true });
});

const describeAnswer = ({ example, answer }: (typeof answers)[number]) =>
  `${example.operationId} ${example.name} → ${answer.status} ${answer.body.slice(0, 300)}`;

describe('the spec’s examples, replayed through their curl samples in document order on a fresh npm start', () => {
  it('every example has a curl sample, and every answer carries an X-Request-Id', () => {
    expect(answers.length).toBe(cases.length);
    expect(answers.length).toBeGreaterThanOrEqual(operations.length);
    expect(answers.filter(({ answer }) => !answer.requestId).map(describeAnswer)).toEqual([]);
  });

  it('answer the status of their response example, every one of every operation but the alternatives and those needing earlier state', () => {
    const failed = answers.filter(
      ({ example, answer }) =>
        !(example.operationId in NEEDS_STATE) && !ALTERNATIVES.includes(example.operationId) && answer.status !== example.expected?.status,
    );
    expect(failed.map(describeAnswer)).toEqual([]);
  });

  it('the alternatives: exactly one answers its documented success, the other a refusal its operation documents', () => {
    const replayed = answers.filter(({ example }) => ALTERNATIVES.includes(example.operationId));
    expect(replayed.map(({ example }) => example.operationId).sort()).toEqual([...ALTERNATIVES].sort());
    const succeeded = replayed.filter(({ example, answer }) => answer.status === example.expected?.status);
    expect(succeeded.map(describeAnswer), replayed.map(describeAnswer).join('\n')).toHaveLength(1);
    for (const refused of replayed.filter((entry) => !succeeded.includes(entry))) {
      const operation = operations.find((candidate) => candidate.operationId === refused.example.operationId)!;
      const code = (refused.answer.json as { error?: { code?: string } } | undefined)?.error?.code;
      expect(documentedCodes(operation, refused.answer.status), describeAnswer(refused)).toContain(code);
    }
  });

  it('the examples needing earlier state are refused with a status their operation documents, never a 5xx', () => {
    for (const entry of answers.filter(({ example }) => example.operationId in NEEDS_STATE)) {
      const operation = operations.find((candidate) => candidate.operationId === entry.example.operationId)!;
      expect(Object.keys(operation.responses), describeAnswer(entry)).toContain(String(entry.answer.status));
      expect(entry.answer.status, describeAnswer(entry)).toBeLessThan(500);
    }
  });

  it('lists only operations of the spec, and few states the story cannot reach', () => {
    const ids = operations.map((operation) => operation.operationId);
    expect([...Object.keys(NEEDS_STATE), ...ALTERNATIVES].filter((id) => !ids.includes(id))).toEqual([]);
    // Operations on one state (approve or reject a request awaiting approval) miss one step of the story between them.
    expect(new Set(Object.values(NEEDS_STATE)).size).toBeLessThanOrEqual(ids.length / 8);
  });

  it.each(Object.entries(NEEDS_STATE))('%s: its description names the state its example needs (%s)', (operationId, state) => {
    const description = operations.find((operation) => operation.operationId === operationId)?.description ?? '';
    expect(description).toContain('## Replaying the example');
    const section = description.slice(description.indexOf('## Replaying the example'));
    for (const word of state.split(/\s+/).filter((w) => /^[A-Za-z_]{5,}$/.test(w) && !['which', 'example'].includes(w))) {
      expect(section, `${operationId}: "${word}"`).toContain(word);
    }
  });

  it.each(ALTERNATIVES)('%s: its description says which operation it is the alternative of', (operationId) => {
    const description = operations.find((operation) => operation.operationId === operationId)?.description ?? '';
    expect(description).toContain('## Replaying the example');
    const other = ALTERNATIVES.find((id) => id !== operationId)!;
    expect(description.slice(description.indexOf('## Replaying the example'))).toContain(other);
  });

  it('no other operation says its example needs earlier state', () => {
    const saying = operations.filter((operation) => operation.description?.includes('## Replaying the example')).map((operation) => operation.operationId);
    expect(saying.sort()).toEqual([...Object.keys(NEEDS_STATE), ...ALTERNATIVES].sort());
  });

  it('gives no Idempotency-Key example to copy (one key shared by every POST would make all but the first 422)', () => {
    const keys = operations.flatMap((operation) =>
      (operation.parameters ?? []).filter((parameter) => parameter.in === 'header' && parameter.name === 'Idempotency-Key'),
    );
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.filter((parameter) => parameter.example !== undefined || parameter.examples !== undefined)).toEqual([]);
  });

  it('sends the CSV upload’s query parameters with the CSV examples only', () => {
    const csvOnly = ['sourceAccountCurrencyId', 'payrollAccountCurrencyId', 'feeHash'];
    const uploads = cases.filter((example) => ['estimatePayrollFee', 'createPayrollRequest'].includes(example.operationId));
    for (const example of uploads) {
      const given = Object.keys(example.query).filter((name) => csvOnly.includes(name));
      if (example.body?.contentType === 'text/csv') expect(given.length, example.name).toBeGreaterThan(0);
      else expect(given, example.name).toEqual([]);
    }
  });
});
