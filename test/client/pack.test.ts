// The package as a consumer gets it. `npm pack --dry-run` (whose prepack bundles the spec and builds
// the client) must list exactly the published files and nothing private; the real tarball, unpacked
// into a scratch project's node_modules, must type-check and run a consumer's code through the
// package's "exports" — including the README's usage example.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ids } from '../fixtures/world.js';
import { type TestServer, startTestServer } from '../support/server.js';
import { inRepo, run, withBuildLock } from '../support/build.js';
import { typeCheck } from '../support/typecheck.js';
import { readmeExample } from './readme.js';

/** What the tarball holds: the compiled client, the generated types, the bundled spec, README, package.json. */
const PUBLISHED = [
  'README.md',
  'package.json',
  'dist/client/index.d.ts',
  'dist/client/index.js',
  'dist/client/webhooks.d.ts',
  'dist/client/webhooks.js',
  'dist/openapi.json',
  'dist/openapi.yaml',
  'generated/api.d.ts',
];
const PRIVATE =
  /^(test|data|\.ci|src|scripts|worlds|examples|client|bench|openapi|node_modules|coverage|dist\/docs)\/|^\.|\.env|\.npmrc|tsconfig|vitest|redocly\.yaml/;

interface PackResult {
  filename: string;
  name: string;
  version: string;
  files: { path: string; size: number }[];
}

const packJson = (stdout: string): PackResult => {
  const parsed = JSON.parse(stdout.slice(stdout.indexOf('['))) as PackResult[];
  return parsed[0]!;
};

let dryRun: PackResult;
let scratch: string;
let consumer: string;
let server: TestServer;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'payroll-pack-'));
  const tarball = withBuildLock(() => {
    dryRun = packJson(run('npm', ['pack', '--dry-run', '--json']));
    // prepack ran just above: pack the same build for real, without building again.
    return packJson(run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', scratch])).filename;
  });
  // A consumer project with the package installed as `npm install ./payroll-fee-service-*.tgz` would
  // (its one runtime dependency, openapi-fetch, linked from this repository: no network).
  consumer = join(scratch, 'consumer');
  const installed = join(consumer, 'node_modules', 'payroll-fee-service');
  mkdirSync(installed, { recursive: true });
  run('tar', ['-xzf', join(scratch, tarball), '-C', installed, '--strip-components=1']);
  symlinkSync(inRepo('node_modules', 'openapi-fetch'), join(consumer, 'node_modules', 'openapi-fetch'), 'dir');
  writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  server = await startTestServer();
}, 180_000);

afterAll(async () => {
  await server?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe('npm pack', () => {
  it('holds exactly the client build, the generated types, the bundled spec, README and package.json', () => {
    expect(dryRun.name).toBe('payroll-fee-service');
    expect(dryRun.files.map((file) => file.path).sort()).toEqual([...PUBLISHED].sort());
  });

  it('holds nothing private: no tests, data, CI, server sources, scripts, worlds or dotfiles', () => {
    expect(dryRun.files.map((file) => file.path).filter((path) => PRIVATE.test(path))).toEqual([]);
  });

  it('stays private on the registry (npm pack works, npm publish refuses)', () => {
    const manifest = JSON.parse(readFileSync(inRepo('package.json'), 'utf8')) as { private?: boolean };
    expect(manifest.private).toBe(true);
  });
});

describe('the installed package, as a consumer uses it', () => {
  it('type-checks a consumer, the README usage example included, through "exports"', () => {
    writeFileSync(join(consumer, 'readme-example.ts'), readmeExample());
    writeFileSync(
      join(consumer, 'types.ts'),
      [
        "import type { components, paths } from 'payroll-fee-service/types';",
        "import { createPayrollClient, type PayrollClient } from 'payroll-fee-service';",
        "export const api: PayrollClient = createPayrollClient({ baseUrl: 'http://localhost:3000', token: () => 'token' });",
        "export type Request = components['schemas']['PayrollRequest'];",
        'export type Paths = keyof paths;',
        "// @ts-expect-error -- the client only knows the spec's paths",
        "void api.GET('/v1/not-in-the-spec');",
      ].join('\n'),
    );
    // skipLibCheck off: the published .d.ts files themselves must compile in the consumer.
    typeCheck(consumer, { include: ['*.ts'], skipLibCheck: false });
  }, 60_000);

  it('runs against the server: the compiled client, its errors, and the bundled spec files', async () => {
    writeFileSync(
      join(consumer, 'run.mjs'),
      `
      import { readFileSync } from 'node:fs';
      import { fileURLToPath } from 'node:url';
      import { createPayrollClient, unwrap, PayrollApiError } from 'payroll-fee-service';
      const api = createPayrollClient({ baseUrl: process.env.BASE_URL, token: process.env.TOKEN });
      const health = unwrap(await api.GET('/healthz'));
      const request = unwrap(await api.GET('/v1/customers/payroll/requests/{requestId}', { params: { path: { requestId: process.env.REQUEST_ID } } }));
      let error;
      try { unwrap(await api.GET('/v1/customers/payroll/requests/{requestId}', { params: { path: { requestId: 'not-a-uuid' } } })); }
      catch (e) { error = { isPayrollApiError: e instanceof PayrollApiError, status: e.status, code: e.code, hasRequestId: typeof e.requestId === 'string' }; }
      const spec = JSON.parse(readFileSync(fileURLToPath(import.meta.resolve('payroll-fee-service/openapi.json')), 'utf8'));
      const yaml = readFileSync(fileURLToPath(import.meta.resolve('payroll-fee-service/openapi.yaml')), 'utf8');
      console.log(JSON.stringify({ health, status: request.status, error, openapi: spec.openapi, yaml: yaml.startsWith('openapi: 3.1') }));
      `,
    );
    const token = await server.token(ids.userA);
    const { execFile } = await import('node:child_process');
    const stdout = await new Promise<string>((resolve, reject) =>
      execFile(
        process.execPath,
        ['run.mjs'],
        { cwd: consumer, env: { ...process.env, BASE_URL: server.baseUrl, TOKEN: token, REQUEST_ID: ids.requestACompleted } },
        (error, out, err) => (error ? reject(new Error(`${error.message}\n${err}`)) : resolve(out)),
      ),
    );
    expect(JSON.parse(stdout)).toEqual({
      health: { status: 'ok' },
      status: 'COMPLETED',
      error: { isPayrollApiError: true, status: 400, code: 'VALIDATION_ERROR', hasRequestId: true },
      openapi: '3.1.0',
      yaml: true,
    });
  }, 60_000);
});
