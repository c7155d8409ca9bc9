// The breaking-change gate (`npm run spec:gate`, a step of .ci/run) on temporary copies of the released
// spec: it passes on no change and on an additive one, and fails on a removed response field and on a
// newly required request field unless the major version changes (with its changelog section).
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedReleases } from '../../../scripts/release/steps.js';
import { compareSpecs } from '../../../scripts/spec-gate/compare.js';
import { inRepo } from '../../support/build.js';

interface Schema {
  required?: string[];
  properties: Record<string, unknown>;
}
interface Spec {
  info: { version: string };
  paths: Record<string, unknown>;
  components: { schemas: Record<string, Schema> };
}

const RELEASED = inRepo('openapi', 'released', 'openapi.json');
const released = JSON.parse(readFileSync(RELEASED, 'utf8')) as Spec;
const CHANGELOG = '# Changelog\n\n## 3.0.0 (not yet released)\n\n- breaking\n\n## 2.0.0 (2026-11-28)\n\n- second\n\n## 1.0.0\n\n- first\n';
let scratch: string;

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'payroll-spec-gate-'));
  writeFileSync(join(scratch, 'CHANGELOG.md'), CHANGELOG);
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A copy of the released spec changed by `edit`. */
function changed(edit: (spec: Spec) => void): Spec {
  const spec = structuredClone(released);
  edit(spec);
  return spec;
}

const withoutPayoutFee = (spec: Spec) => {
  const estimate = spec.components.schemas.PayoutFeeEstimate!;
  delete estimate.properties.fee;
  estimate.required = estimate.required!.filter((name) => name !== 'fee');
};
const amountCurrencyTypeRequired = (spec: Spec) => void spec.components.schemas.EstimateAmountSplitEntry!.required!.push('amountCurrencyType');

/** `npm run -s spec:gate` on a copy of `spec` against the released spec, as CI runs it. */
function gate(name: string, spec: Spec): Promise<{ code: number; output: string }> {
  const file = join(scratch, `${name}.json`);
  writeFileSync(file, JSON.stringify(spec));
  const args = ['run', '-s', 'spec:gate', '--', '--spec', file, '--changelog', join(scratch, 'CHANGELOG.md')];
  return new Promise((resolve) => {
    execFile('npm', args, { cwd: inRepo(), timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, output: stdout + stderr }),
    );
  });
}

describe('npm run spec:gate (the breaking-change gate against the newest release, openapi/released/openapi.json)', () => {
  it('the released spec is the newest stored release, 2.0.0, kept beside every earlier one, and CHANGELOG.md dates its section', () => {
    const stored = storedReleases(inRepo('openapi', 'released'));
    expect(stored).toEqual(['1.0.0', '2.0.0']);
    expect(released.info.version).toBe(stored.at(-1));
    expect(readFileSync(inRepo('openapi', 'released', '2.0.0', 'openapi.json'), 'utf8')).toBe(readFileSync(RELEASED, 'utf8'));
    expect(readFileSync(inRepo('CHANGELOG.md'), 'utf8')).toMatch(/^## 2\.0\.0 \(\d{4}-\d{2}-\d{2}\)$/m);
  });

  it('passes on the released spec itself', async () => {
    const { code, output } = await gate('same', released);
    // No breaking change. (api-smart-diff reports cancelPayrollRequest's operation-level requestId,
    // which overrides the path's, as "added" even between two identical documents: a non-breaking line.)
    expect(output).not.toContain('Breaking changes');
    expect(compareSpecs(released, structuredClone(released), CHANGELOG).breaking).toEqual([]);
    expect(code).toBe(0);
  }, 120_000);

  it('fails on a field removed from a response, naming the operation and the field', async () => {
    const { code, output } = await gate('removed-field', changed(withoutPayoutFee));
    expect(code).toBe(1);
    expect(output).toContain('GET /v1/accounts/{accountId}/payouts/estimate: [Removed] property `fee` from `data` in Response 200');
    expect(output).toMatch(/spec gate FAILED:\n {2}- \d+ breaking change\(s\) within major version 2/);
  }, 120_000);

  it('fails on a request field made required', async () => {
    const { code, output } = await gate('newly-required', changed(amountCurrencyTypeRequired));
    expect(code).toBe(1);
    expect(output).toContain('POST /v1/customers/payroll/estimate: [Added] required status to `amountSplitDetails[].amountCurrencyType` in Request Body');
  }, 120_000);

  it('lets both through in a new major version that has its changelog section', async () => {
    const major = changed((spec) => {
      withoutPayoutFee(spec);
      amountCurrencyTypeRequired(spec);
      spec.info.version = '3.0.0';
    });
    const { code, output } = await gate('major', major);
    expect(output).toContain('Breaking changes (');
    expect(output).toContain('[Removed] property `fee`');
    expect(output).toContain('spec gate: OK');
    expect(code).toBe(0);
  }, 120_000);

  it('lets additive changes through in the same major; asks for a changelog section for a new version', () => {
    const additive = changed((spec) => {
      spec.components.schemas.PayoutFeeEstimate!.properties.note = { type: 'string', description: 'A new optional field.' };
      spec.paths['/v1/ping'] = { get: { operationId: 'ping', responses: { '204': { description: 'Pong.' } } } };
    });
    const sameVersion = compareSpecs(released, additive, CHANGELOG);
    expect(sameVersion.breaking).toEqual([]);
    expect(sameVersion.nonBreaking).toEqual(expect.arrayContaining(['GET /v1/ping: [Added] operation GET /v1/ping']));
    expect(sameVersion.failures).toEqual([]);
    additive.info.version = '2.1.0';
    expect(compareSpecs(released, additive, CHANGELOG).failures).toEqual(['CHANGELOG.md has no "## 2.1.0" section for info.version 2.1.0']);
    const lower = changed((spec) => void (spec.info.version = '1.9.0'));
    expect(compareSpecs(released, lower, CHANGELOG).failures).toContain('info.version 1.9.0 is below the released 2.0.0');
  });
});
