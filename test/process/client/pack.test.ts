// The client package (packages/client, published as `payroll-fee-service`) as a consumer gets it.
// `npm pack -w packages/client` (whose prepack builds dist/) must list exactly the published files; the
// tarball passes publint and @arethetypeswrong/cli; installed with npm into an empty project, with no
// network (its one runtime dependency, openapi-fetch, and that package's own dependency are packed from
// this repository's node_modules and installed from those tarballs), it adds the client and
// openapi-fetch's tree only, under 1.5 MiB, and a strict-mode consumer type-checks and runs against the server.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ids } from '../../fixtures/world.js';
import { type TestServer, startTestServer } from '../../support/server.js';
import { inRepo, run, withBuildLock } from '../../support/build.js';
import { typeCheck } from '../../support/typecheck.js';
import { consumerSetup, readmeExample, typeScriptSnippets } from '../../support/clientReadme.js';

const CLIENT = 'payroll-fee-service';
/** What the tarball holds: the compiled client, the generated types, the bundled spec, README, package.json. */
const PUBLISHED = [
  'README.md',
  'package.json',
  'dist/api.d.ts',
  'dist/envelope.d.ts',
  'dist/envelope.js',
  'dist/index.d.ts',
  'dist/index.js',
  'dist/node.d.ts',
  'dist/node.js',
  'dist/openapi.json',
  'dist/paging.d.ts',
  'dist/paging.js',
  'dist/webhooks.d.ts',
  'dist/webhooks.js',
  'dist/webhooksNode.d.ts',
  'dist/webhooksNode.js',
];
/** openapi-fetch and its one dependency: the whole runtime tree of the client. */
const RUNTIME_TREE = ['openapi-fetch', 'openapi-typescript-helpers'];

interface PackResult {
  filename: string;
  name: string;
  version: string;
  files: { path: string; size: number }[];
}

const packJson = (stdout: string): PackResult => (JSON.parse(stdout.slice(stdout.indexOf('['))) as PackResult[])[0]!;

/** Every file's size under `dir`, in bytes. */
function treeBytes(dir: string): number {
  return readdirSync(dir, { withFileTypes: true }).reduce((sum, entry) => {
    const path = join(dir, entry.name);
    return sum + (entry.isDirectory() ? treeBytes(path) : statSync(path).size);
  }, 0);
}

/** The packages installed under node_modules (scoped ones included), as `name@version`. */
function installedPackages(modules: string): string[] {
  return readdirSync(modules)
    .filter((name) => !name.startsWith('.'))
    .flatMap((name) => (name.startsWith('@') ? readdirSync(join(modules, name)).map((inner) => `${name}/${inner}`) : [name]))
    .map((name) => `${name}@${(JSON.parse(readFileSync(join(modules, name, 'package.json'), 'utf8')) as { version: string }).version}`)
    .sort();
}

let dryRun: PackResult;
let scratch: string;
let tarball: string;
let consumer: string;
let server: TestServer;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'payroll-pack-'));
  tarball = withBuildLock(() => {
    dryRun = packJson(run('npm', ['pack', '-w', 'packages/client', '--dry-run', '--json']));
    // prepack ran just above: pack the same build for real, without building again.
    return join(scratch, packJson(run('npm', ['pack', '-w', 'packages/client', '--json', '--ignore-scripts', '--pack-destination', scratch])).filename);
  });
  const dependencies = RUNTIME_TREE.map((name) =>
    join(scratch, packJson(run('npm', ['pack', inRepo('node_modules', name), '--json', '--ignore-scripts', '--pack-destination', scratch])).filename),
  );
  consumer = join(scratch, 'consumer');
  mkdirSync(consumer);
  writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball, ...dependencies], { cwd: consumer });
  server = await startTestServer();
}, 180_000);

afterAll(async () => {
  await server?.close();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe('npm pack -w packages/client', () => {
  it('holds exactly the client build, the generated types, the bundled spec, README and package.json', () => {
    expect(dryRun.name).toBe(CLIENT);
    expect(dryRun.files.map((file) => file.path).sort()).toEqual([...PUBLISHED].sort());
  });

  it('declares openapi-fetch as its only dependency, and the server package stays private', () => {
    const client = JSON.parse(readFileSync(inRepo('packages', 'client', 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(client.dependencies).toEqual({ 'openapi-fetch': expect.any(String) });
    expect(Object.keys(client).filter((key) => /dependencies$/i.test(key) && key !== 'dependencies')).toEqual([]);
    const root = JSON.parse(readFileSync(inRepo('package.json'), 'utf8')) as { private?: boolean; workspaces?: string[] };
    expect(root.private).toBe(true);
    expect(root.workspaces).toContain('packages/client');
  });

  it('passes publint (strict) and @arethetypeswrong/cli (ESM-only: Node 16+ ESM and bundlers)', () => {
    expect(run(inRepo('node_modules', '.bin', 'publint'), ['run', tarball, '--strict'])).toMatch(/All good/);
    // attw exits non-zero on a problem in the profile's resolutions (node16 from ESM, bundler); its report lists each entrypoint.
    const report = run(inRepo('node_modules', '.bin', 'attw'), [tarball, '--profile', 'esm-only', '--no-emoji', '--no-color', '--format', 'ascii']);
    const checked = [...report.matchAll(/^"(payroll-fee-service[^"]*)"$/gm)].map((match) => match[1]);
    expect(checked.sort()).toEqual([CLIENT, `${CLIENT}/node`, `${CLIENT}/openapi.json`, `${CLIENT}/package.json`, `${CLIENT}/types`]);
  }, 120_000);
});

describe('the installed package, as a consumer gets it', () => {
  it('adds the client and openapi-fetch (with its one dependency) only, under 1.5 MiB (the bundled spec and its types are most of it, and grow with the API)', () => {
    const modules = join(consumer, 'node_modules');
    const installed = installedPackages(modules);
    expect(installed.map((spec) => spec.replace(/@[^@]+$/, ''))).toEqual([CLIENT, ...RUNTIME_TREE].sort());
    expect(installed.filter((spec) => !spec.startsWith(`${CLIENT}@`)).length).toBeLessThanOrEqual(2);
    expect(treeBytes(modules)).toBeLessThan(1_572_864);
  });

  it('type-checks a strict consumer, the README usage example included, through "exports"', () => {
    writeFileSync(join(consumer, 'readme-example.ts'), readmeExample());
    writeFileSync(
      join(consumer, 'types.ts'),
      [
        `import type { components, paths } from '${CLIENT}/types';`,
        `import { createPayrollClient, type PayrollClient } from '${CLIENT}';`,
        "export const api: PayrollClient = createPayrollClient({ baseUrl: 'http://localhost:3000', token: () => 'token' });",
        "export type Request = components['schemas']['PayrollRequest'];",
        "// On Node, the entry point keeps the synchronous checks (Node's crypto); ./node names it anywhere.",
        `import { constructEventAsync, constructEventSync, verifyWebhook, verifyWebhookAsync } from '${CLIENT}';`,
        `import { verifyWebhook as verifyOnNode } from '${CLIENT}/node';`,
        'export const checks: Array<(body: string, header: string, secret: string) => unknown> = [constructEventAsync, constructEventSync, verifyWebhook, verifyWebhookAsync, verifyOnNode];',
        'export type Paths = keyof paths;',
        "// @ts-expect-error -- the client only knows the spec's paths",
        "void api.GET('/v1/not-in-the-spec');",
        '// @ts-expect-error -- an idempotency key is a string',
        "void api.POST('/v1/customers/payroll/requests/{requestId}/accept', { params: { path: { requestId: 'x' } }, idempotencyKey: 1 });",
      ].join('\n'),
    );
    // skipLibCheck off: the published .d.ts files themselves must compile in the consumer.
    typeCheck(consumer, { include: ['*.ts'], skipLibCheck: false });
  }, 120_000);

  it('type-checks every TypeScript block of the READMEs and guides with the consumer setup the client README shows', () => {
    const { packageJson, tsconfig } = consumerSetup();
    expect(packageJson.type, 'the consumer is an ES module project (top-level await)').toBe('module');
    expect(Object.keys(packageJson.dependencies as object)).toEqual([CLIENT]);
    const snippets = typeScriptSnippets();
    expect(snippets.length).toBeGreaterThanOrEqual(3);
    const dir = join(consumer, 'snippets');
    mkdirSync(dir, { recursive: true });
    for (const snippet of snippets) writeFileSync(join(dir, snippet.name), snippet.source);
    // The guide's tsconfig as written; only where @types/node lives is added (the consumer installs it itself).
    const compilerOptions = { ...tsconfig.compilerOptions, typeRoots: [inRepo('node_modules', '@types')] };
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, include: ['*.ts'] }));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'snippets', private: true, type: packageJson.type }));
    run(process.execPath, [inRepo('node_modules', 'typescript', 'bin', 'tsc'), '-p', dir], { cwd: dir });
  }, 120_000);

  it('imports no node: module outside its Node entry point, reached only by the node export condition or ./node', () => {
    const dist = join(consumer, 'node_modules', CLIENT, 'dist');
    const nodeOnly = ['node.js', 'node.d.ts', 'webhooksNode.js', 'webhooksNode.d.ts'];
    const importsNode = (name: string) => /(?:from\s*|import\s*\(\s*|require\s*\(\s*)['"]node:/.test(readFileSync(join(dist, name), 'utf8'));
    const offenders = readdirSync(dist)
      .filter((name) => name.endsWith('.js') || name.endsWith('.d.ts'))
      .filter((name) => !nodeOnly.includes(name) && importsNode(name));
    expect(offenders).toEqual([]);
    expect(importsNode('webhooksNode.js')).toBe(true);
    const { exports } = JSON.parse(readFileSync(join(consumer, 'node_modules', CLIENT, 'package.json'), 'utf8')) as { exports: Record<string, unknown> };
    const reachable = (entry: unknown, conditions: string[]): string[] =>
      typeof entry === 'string'
        ? [entry]
        : Object.entries(entry as Record<string, unknown>).flatMap(([condition, target]) =>
            conditions.includes(condition) ? reachable(target, conditions) : [],
          );
    const elsewhere = Object.entries(exports)
      .filter(([subpath]) => subpath !== './node')
      .flatMap(([, entry]) => reachable(entry, ['types', 'import', 'browser', 'default']));
    expect(elsewhere.filter((target) => nodeOnly.some((name) => target.endsWith(`/${name}`)))).toEqual([]);
  });

  it('runs against the server: the compiled client, its errors, and the bundled spec', async () => {
    writeFileSync(
      join(consumer, 'run.mjs'),
      `
      import { readFileSync } from 'node:fs';
      import { fileURLToPath } from 'node:url';
      import { createPayrollClient, unwrap, PayrollApiError } from '${CLIENT}';
      const api = createPayrollClient({ baseUrl: process.env.BASE_URL, token: process.env.TOKEN });
      const health = unwrap(await api.GET('/healthz'));
      const request = unwrap(await api.GET('/v1/customers/payroll/requests/{requestId}', { params: { path: { requestId: process.env.REQUEST_ID } } }));
      let error;
      try { unwrap(await api.GET('/v1/customers/payroll/requests/{requestId}', { params: { path: { requestId: 'not-a-uuid' } } })); }
      catch (e) { error = { isPayrollApiError: e instanceof PayrollApiError, status: e.status, code: e.code, hasRequestId: typeof e.requestId === 'string' }; }
      const spec = JSON.parse(readFileSync(fileURLToPath(import.meta.resolve('${CLIENT}/openapi.json')), 'utf8'));
      console.log(JSON.stringify({ health, status: request.status, error, openapi: spec.openapi, paths: Object.keys(spec.paths).length > 0 }));
      `,
    );
    const token = await server.token(ids.userA);
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
      paths: true,
    });
  }, 120_000);
});
