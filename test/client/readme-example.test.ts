// The README's usage example compiles against the client (here its source, mapped to the package
// name, so no build is needed; test/client/pack.test.ts compiles it again against the packed tarball).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { inRepo, run } from './build.js';
import { readmeExample } from './readme.js';

const scratch = mkdtempSync(join(tmpdir(), 'payroll-readme-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function typeCheck(source: string): void {
  writeFileSync(join(scratch, 'package.json'), JSON.stringify({ name: 'readme-example', private: true, type: 'module' }));
  writeFileSync(join(scratch, 'example.ts'), source);
  writeFileSync(
    join(scratch, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        types: ['node'],
        typeRoots: [inRepo('node_modules', '@types')],
        paths: { 'payroll-fee-service': [inRepo('client', 'index.ts')] },
      },
      files: ['example.ts'],
    }),
  );
  run(process.execPath, [inRepo('node_modules', 'typescript', 'bin', 'tsc'), '-p', scratch], { cwd: scratch });
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
    typeCheck(example);
  }, 60_000);

  it('would catch a wrong call (the check is not vacuous)', () => {
    const broken = example.replace(/amount: '([0-9.]+)'/, 'amount: $1');
    expect(broken).not.toBe(example);
    expect(() => typeCheck(broken)).toThrow(/error TS/);
  }, 60_000);
});
