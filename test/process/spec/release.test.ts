// `npm run release` (scripts/release.ts): its rules on their own (version order, the changelog's dated
// heading, the stored releases, the client's version), and the command refusing, before any work, a
// release already made, a version that is not one, and a version whose changelog section is missing.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { clientVersionFor, compareVersions, dateChangelog, parseVersion, storedReleases } from '../../../scripts/release/steps.js';
import { inRepo } from '../../support/build.js';

const scratch = mkdtempSync(join(tmpdir(), 'payroll-release-test-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const CHANGELOG = '# Changelog\n\n## 3.0.0 (not yet released)\n\n- next\n\n## 2.0.0 (2026-11-28)\n\n- done\n\n## 1.0.0\n\n- first\n';

function release(args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) =>
    execFile('npm', ['run', '-s', 'release', '--', ...args], { cwd: inRepo(), timeout: 30_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, output: stdout + stderr }),
    ),
  );
}

describe('release rules (scripts/release/steps.ts)', () => {
  it('orders versions numerically and refuses anything but MAJOR.MINOR.PATCH', () => {
    expect(['10.0.0', '2.0.0', '2.10.0', '2.9.1'].sort(compareVersions)).toEqual(['2.0.0', '2.9.1', '2.10.0', '10.0.0']);
    expect(() => parseVersion('3.0.0-rc.1')).toThrow(/not a release version/);
    expect(() => parseVersion('v3.0.0')).toThrow(/not a release version/);
  });

  it('dates the "not yet released" section once, and refuses a missing or already dated one', () => {
    const dated = dateChangelog(CHANGELOG, '3.0.0', '2026-12-01');
    expect(dated).toContain('\n## 3.0.0 (2026-12-01)\n');
    expect(dated.replace('## 3.0.0 (2026-12-01)', '## 3.0.0 (not yet released)')).toBe(CHANGELOG);
    expect(() => dateChangelog(dated, '3.0.0', '2026-12-02')).toThrow(/already "## 3\.0\.0 \(2026-12-01\)"/);
    expect(() => dateChangelog(CHANGELOG, '1.0.0', '2026-12-01')).toThrow(/already/);
    expect(() => dateChangelog(CHANGELOG, '4.0.0', '2026-12-01')).toThrow(/no "## 4\.0\.0 \(not yet released\)" section/);
  });

  it('lists the stored releases, lowest first, each a folder holding openapi.json', () => {
    const dir = join(scratch, 'released');
    for (const version of ['2.0.0', '10.0.0', '1.0.0', 'notes']) {
      mkdirSync(join(dir, version), { recursive: true });
      writeFileSync(join(dir, version, 'openapi.json'), '{}');
    }
    mkdirSync(join(dir, '3.0.0')); // no bundle in it: not a release
    expect(storedReleases(dir)).toEqual(['1.0.0', '2.0.0', '10.0.0']);
    expect(storedReleases(inRepo('openapi', 'released'))).toEqual(['1.0.0', '2.0.0']);
  });

  it("gives the client package the API's version (the rule of CHANGELOG.md's header)", () => {
    expect(clientVersionFor('2.0.0')).toBe('2.0.0');
    expect(() => clientVersionFor('2.0')).toThrow();
  });
});

describe('npm run release', () => {
  it('refuses a release already made, before any work', async () => {
    const run = await release(['2.0.0']);
    expect(run.code).toBe(1);
    expect(run.output).toContain('2.0.0 is already released (openapi/released/2.0.0/openapi.json)');
  }, 120_000);

  it('refuses a version that is not one, and one with no changelog section', async () => {
    const bad = await release(['v4']);
    expect(bad.code).toBe(2);
    expect(bad.output).toContain('"v4" is not a release version');
    const missing = await release(['9.0.0']);
    expect(missing.code).toBe(1);
    expect(missing.output).toContain('CHANGELOG.md has no "## 9.0.0 (not yet released)" section');
  }, 120_000);
});
