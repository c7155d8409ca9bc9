// The code samples of the reference (scripts/code-samples.mjs, a Redocly decorator): every operation
// of the bundle (dist/openapi.json, as `npm run docs` builds it) carries a curl and a TypeScript
// sample of each of its examples, the reference page embeds them, and every TypeScript sample
// compiles (tsc, strict, NodeNext) against the client package's types. The curl samples are run
// against a server by test/process/spec/examplesReplay.test.ts.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDocs, inRepo } from '../../support/build.js';
import { typeCheck } from '../../support/typecheck.js';

type Sample = { lang: string; label: string; source: string };
type Operation = {
  operationId: string;
  security?: unknown[];
  requestBody?: { content: Record<string, { examples?: object }> };
  'x-codeSamples'?: Sample[];
};
type Bundle = { security?: unknown[]; paths: Record<string, Record<string, Operation>> };

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const scratch = mkdtempSync(join(tmpdir(), 'payroll-samples-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let bundle: Bundle;
let operations: Array<Operation & { path: string; method: string }>;
beforeAll(() => {
  bundle = JSON.parse(ensureDocs()) as Bundle;
  operations = Object.entries(bundle.paths).flatMap(([path, item]) => METHODS.flatMap((method) => (item[method] ? [{ ...item[method], path, method }] : [])));
}, 300_000);

const samplesOf = (operation: Operation, lang: string) => (operation['x-codeSamples'] ?? []).filter((sample) => sample.lang === lang);
/** One sample per request example, or one for an operation without a body. */
const exampleCount = (operation: Operation) =>
  Math.max(
    1,
    Object.values(operation.requestBody?.content ?? {}).reduce((sum, media) => sum + Object.keys(media.examples ?? {}).length, 0),
  );

/** The TypeScript samples (and one wrong copy) as a project of their own, compiled by one tsc run: its error lines. */
function compile(samples: Array<{ file: string; source: string }>): string[] {
  writeFileSync(join(scratch, 'package.json'), JSON.stringify({ name: 'code-samples', private: true, type: 'module' }));
  for (const { file, source } of samples) writeFileSync(join(scratch, file), source);
  try {
    typeCheck(scratch, {
      files: samples.map(({ file }) => file),
      skipLibCheck: true,
      paths: { 'payroll-fee-service': [inRepo('packages', 'client', 'src', 'index.ts')], 'payroll-fee-service/types': [inRepo('generated', 'api.d.ts')] },
    });
    return [];
  } catch (error) {
    return (error as Error).message.split('\n').filter((line) => line.includes('error TS'));
  }
}

describe('code samples (x-codeSamples)', () => {
  it('every operation of dist/openapi.json has a curl and a TypeScript sample of each of its examples', () => {
    expect(operations.length).toBeGreaterThan(30);
    const missing = operations.flatMap((operation) => {
      const wanted = exampleCount(operation);
      return ['Shell', 'TypeScript'].flatMap((lang) => {
        const count = samplesOf(operation, lang).length;
        return count === wanted ? [] : [`${operation.operationId}: ${count} ${lang} samples, ${wanted} examples`];
      });
    });
    expect(missing).toEqual([]);
  });

  it('the curl samples read the service from $PAYROLL_API and, where the operation is secured, the token from $TOKEN', () => {
    const wrong = operations.flatMap((operation) => {
      const secured = (operation.security ?? bundle.security ?? []).length > 0;
      return samplesOf(operation, 'Shell').flatMap((sample) => {
        const ok = sample.source.startsWith(`curl -sS -X ${operation.method.toUpperCase()} "$PAYROLL_API/`) && sample.source.includes('$TOKEN') === secured;
        return ok ? [] : [`${operation.operationId} ${sample.label}`];
      });
    });
    expect(wrong).toEqual([]);
  });

  it('the reference page embeds them (npm run docs)', () => {
    const html = readFileSync(inRepo('dist', 'docs', 'index.html'), 'utf8');
    expect(html).toContain('x-codeSamples');
    expect(html).toContain('$PAYROLL_API/v1/customers/payroll/estimate');
    expect(html).toContain('createPayrollClient');
  });

  it('every TypeScript sample compiles against the client package (tsc, strict, NodeNext); a wrong one does not', () => {
    const samples = operations.flatMap((operation) =>
      samplesOf(operation, 'TypeScript').map((sample, index) => ({ file: `${operation.operationId}-${index}.ts`, source: sample.source })),
    );
    expect(samples.length).toBeGreaterThanOrEqual(operations.length);
    // The first estimate sample with a number where the spec says a decimal string: tsc must refuse it.
    const estimate = samples.find((sample) => sample.file === 'estimatePayrollFee-0.ts')!;
    const broken = { file: 'broken.ts', source: estimate.source.replace(/amount: '([0-9.]+)'/, 'amount: $1') };
    expect(broken.source).not.toBe(estimate.source);
    const errors = compile([...samples, broken]);
    expect(errors.filter((line) => !line.startsWith('broken.ts'))).toEqual([]);
    expect(errors.filter((line) => line.startsWith('broken.ts')).length).toBeGreaterThan(0);
  }, 120_000);
});
