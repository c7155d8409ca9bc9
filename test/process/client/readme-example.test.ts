// The client guide's usage example (packages/client/README.md) compiles against the client (here its source,
// mapped to the package name, so no build is needed; test/process/client/pack.test.ts compiles it again, with
// every other snippet, against the packed tarball).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { inRepo } from '../../support/build.js';
import { typeCheck } from '../../support/typecheck.js';
import { readmeExample } from '../../support/clientReadme.js';

const scratch = mkdtempSync(join(tmpdir(), 'payroll-readme-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/**
 * The example, and a copy with one wrong call, as a project of its own (`payroll-fee-service`
 * resolved to the client's source), compiled by one tsc run: tsc's error lines, or none.
 */
function typeCheckExamples(sources: { 'example.ts': string; 'broken.ts': string }): string[] {
  writeFileSync(join(scratch, 'package.json'), JSON.stringify({ name: 'readme-example', private: true, type: 'module' }));
  for (const [file, source] of Object.entries(sources)) writeFileSync(join(scratch, file), source);
  try {
    typeCheck(scratch, {
      files: Object.keys(sources),
      skipLibCheck: true,
      paths: { 'payroll-fee-service': [inRepo('packages', 'client', 'src', 'index.ts')], 'payroll-fee-service/types': [inRepo('generated', 'api.d.ts')] },
    });
    return [];
  } catch (error) {
    return (error as Error).message.split('\n').filter((line) => line.includes('error TS'));
  }
}

describe('packages/client/README.md: client usage example', () => {
  const example = readmeExample();
  const broken = example.replace(/amount: '([0-9.]+)'/, 'amount: $1');
  let errors: string[] | undefined;
  const compiled = () => (errors ??= typeCheckExamples({ 'example.ts': example, 'broken.ts': broken }));

  it('is short and uses only the package', () => {
    const lines = example.trim().split('\n');
    expect(lines.length).toBeLessThanOrEqual(14);
    const imports = [...example.matchAll(/from '([^']+)'/g)].map((match) => match[1]);
    expect(imports.every((name) => name === 'payroll-fee-service' || name!.startsWith('node:'))).toBe(true);
  });

  it('type-checks with tsc (strict, NodeNext)', () => {
    // Any error but the wrong call's (in example.ts, or of the project itself) fails it.
    expect(compiled().filter((line) => !line.startsWith('broken.ts'))).toEqual([]);
  }, 120_000);

  it('would catch a wrong call (the check is not vacuous)', () => {
    expect(broken).not.toBe(example);
    expect(compiled().filter((line) => line.startsWith('broken.ts')).length).toBeGreaterThan(0);
  }, 120_000);
});
