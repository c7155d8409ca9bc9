// The README's usage example compiles against the client (here its source, mapped to the package
// name, so no build is needed; test/client/pack.test.ts compiles it again against the packed tarball).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { inRepo } from '../support/build.js';
import { typeCheck } from '../support/typecheck.js';
import { readmeExample } from './readme.js';

const scratch = mkdtempSync(join(tmpdir(), 'payroll-readme-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The example as a project of its own, `payroll-fee-service` resolved to the client's source. */
function typeCheckExample(source: string): void {
  writeFileSync(join(scratch, 'package.json'), JSON.stringify({ name: 'readme-example', private: true, type: 'module' }));
  writeFileSync(join(scratch, 'example.ts'), source);
  typeCheck(scratch, {
    files: ['example.ts'],
    skipLibCheck: true,
    paths: { 'payroll-fee-service': [inRepo('packages', 'client', 'src', 'index.ts')], 'payroll-fee-service/types': [inRepo('generated', 'api.d.ts')] },
  });
}

describe('README: client usage example', () => {
  const example = readmeExample();

  it('is short and uses only the package', () => {
    const lines = example.trim().split('\n');
    expect(lines.length).toBeLessThanOrEqual(14);
    const imports = [...example.matchAll(/from '([^']+)'/g)].map((match) => match[1]);
    expect(imports.every((name) => name === 'payroll-fee-service' || name!.startsWith('node:'))).toBe(true);
  });

  it('type-checks with tsc (strict, NodeNext)', () => {
    typeCheckExample(example);
  }, 60_000);

  it('would catch a wrong call (the check is not vacuous)', () => {
    const broken = example.replace(/amount: '([0-9.]+)'/, 'amount: $1');
    expect(broken).not.toBe(example);
    expect(() => typeCheckExample(broken)).toThrow(/error TS/);
  }, 60_000);
});
