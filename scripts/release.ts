// npm run release -- <version> [--ref <commit>] [--test] [--date YYYY-MM-DD]
// Releases the API: bundles the spec (the working tree's, or the one committed at --ref), runs the gate
// (lint, the breaking-change gate against the latest release, and with --test the test suite), dates
// the version's CHANGELOG.md section, stores the bundle as openapi/released/<version>/openapi.json (and,
// when it is the newest release, as openapi/released/openapi.json, which `npm run spec:gate` reads),
// and sets the client package's version by the rule in CHANGELOG.md's header. It commits nothing:
// review, commit and tag (`git tag v<version>`) yourself.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { compareSpecs } from './spec-gate/compare.js';
import { bundleSpec } from './support/bundle.js';
import { clientVersionFor, compareVersions, dateChangelog, parseVersion, releaseFile, storedReleases } from './release/steps.js';

const USAGE = 'usage: npm run release -- <version> [--ref <git commit: release the spec as committed there>] [--test] [--date YYYY-MM-DD]';
const RELEASED = 'openapi/released';
const LATEST = join(RELEASED, 'openapi.json');
const CLIENT_PACKAGE = 'packages/client/package.json';
const env = { ...process.env, REDOCLY_TELEMETRY: 'off' };

interface Options {
  version: string;
  ref?: string | undefined;
  test: boolean;
  date: string;
}

function options(): Options {
  try {
    const { values, positionals } = parseArgs({
      allowPositionals: true,
      options: { ref: { type: 'string' }, test: { type: 'boolean', default: false }, date: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    });
    if (values.help) {
      console.log(USAGE);
      process.exit(0);
    }
    const [version] = positionals;
    if (!version || positionals.length > 1) throw new Error('give one version');
    parseVersion(version);
    const date = values.date ?? new Date().toISOString().slice(0, 10);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) throw new Error(`--date must be YYYY-MM-DD, not "${date}"`);
    if (values.ref && values.test) throw new Error("--test runs the working tree's suite: it cannot test the spec of --ref");
    return { version, ref: values.ref, test: values.test, date };
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    process.exit(2);
  }
}

/** Runs a step, showing its command; its output goes to the terminal. */
function step(title: string, command: string, args: string[], cwd = process.cwd()): void {
  console.log(`\n== ${title}: ${command} ${args.join(' ')}`);
  execFileSync(command, args, { cwd, env, stdio: 'inherit' });
}

/** The spec committed at `ref`, bundled and linted with that commit's own redocly.yaml; returns the bundle. */
function bundleAt(ref: string, scratch: string): string {
  const commit = execFileSync('git', ['rev-parse', '--verify', `${ref}^{commit}`], { encoding: 'utf8' }).trim();
  console.log(`\n== the spec as committed at ${commit}`);
  execFileSync('bash', ['-c', `git archive "${commit}" openapi redocly.yaml | tar -x -C "${scratch}"`], { stdio: 'inherit' });
  const redocly = resolve('node_modules', '.bin', 'redocly');
  step("lint (that commit's redocly.yaml)", redocly, ['lint'], scratch);
  step('bundle', redocly, ['bundle', 'openapi/openapi.yaml', '-o', 'openapi.json'], scratch);
  return join(scratch, 'openapi.json');
}

/** The bundle to release, after the lint (and, with --test, the suite) of the gate. */
function bundleAndCheck(opts: Options, scratch: string): string {
  if (opts.ref) return bundleAt(opts.ref, scratch);
  step('lint', 'npm', ['run', '-s', 'lint']);
  if (opts.test) step('tests', 'npm', ['test']);
  return resolve(bundleSpec());
}

const versionOf = (file: string) => (JSON.parse(readFileSync(file, 'utf8')) as { info?: { version?: string } }).info?.version ?? '';

/** Keeps the latest release's bundle under its own version before anything replaces it. */
function keepLatest(): string | undefined {
  if (!existsSync(LATEST)) return undefined;
  const version = versionOf(LATEST);
  const kept = releaseFile(RELEASED, version);
  if (!existsSync(kept)) {
    mkdirSync(join(RELEASED, version), { recursive: true });
    copyFileSync(LATEST, kept);
    console.log(`kept the previous release ${version} as ${kept}`);
  }
  return version;
}

/** The breaking-change gate of `npm run spec:gate`, on the bundle against the latest release. */
function gate(bundle: string, changelog: string): void {
  if (!existsSync(LATEST)) return void console.log('\n== breaking-change gate: no earlier release, nothing to compare');
  const result = compareSpecs(JSON.parse(readFileSync(LATEST, 'utf8')), JSON.parse(readFileSync(bundle, 'utf8')), changelog);
  console.log(
    `\n== breaking-change gate: ${result.releasedVersion} → ${result.currentVersion}: ${result.breaking.length} breaking, ${result.nonBreaking.length} other change(s)`,
  );
  if (result.failures.length > 0) throw new Error(`the breaking-change gate failed:\n  - ${result.failures.join('\n  - ')}`);
}

function release(opts: Options, scratch: string): void {
  const stored = storedReleases(RELEASED);
  if (stored.includes(opts.version)) throw new Error(`${opts.version} is already released (${releaseFile(RELEASED, opts.version)})`);
  const changelog = readFileSync('CHANGELOG.md', 'utf8');
  const dated = dateChangelog(changelog, opts.version, opts.date); // refuses before any work when the section is missing
  const bundle = bundleAndCheck(opts, scratch);
  const bundled = versionOf(bundle);
  if (bundled !== opts.version) throw new Error(`the spec's info.version is ${bundled}, not ${opts.version}`);
  gate(bundle, changelog);

  const previous = keepLatest();
  mkdirSync(join(RELEASED, opts.version), { recursive: true });
  copyFileSync(bundle, releaseFile(RELEASED, opts.version));
  writeFileSync('CHANGELOG.md', dated);
  const newest = previous === undefined || compareVersions(opts.version, previous) > 0;
  console.log(`\nstored ${releaseFile(RELEASED, opts.version)}; CHANGELOG.md: ## ${opts.version} (${opts.date})`);
  if (!newest) return void console.log(`${previous} stays the latest release (${LATEST}) and sets the client's version`);
  copyFileSync(bundle, LATEST);
  const client = JSON.parse(readFileSync(CLIENT_PACKAGE, 'utf8')) as { version: string };
  const from = client.version;
  client.version = clientVersionFor(opts.version);
  writeFileSync(CLIENT_PACKAGE, `${JSON.stringify(client, null, 2)}\n`);
  // The lockfile records the workspace's version too; `npm ci` must find the two alike.
  const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as { packages: Record<string, { version?: string }> };
  lock.packages['packages/client']!.version = client.version;
  writeFileSync('package-lock.json', `${JSON.stringify(lock, null, 2)}\n`);
  console.log(`${LATEST} is ${opts.version} (npm run spec:gate compares with it); ${CLIENT_PACKAGE}: ${from} → ${client.version}`);
}

const opts = options();
const scratch = mkdtempSync(join(tmpdir(), 'payroll-release-'));
try {
  release(opts, scratch);
  console.log(`\nrelease ${opts.version} done: review the diff, commit it, and tag the commit: git tag v${opts.version}`);
} catch (error) {
  console.error(`\nrelease ${opts.version} FAILED: ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
