/**
 * The pure steps of `npm run release` (scripts/release.ts): version order, the changelog's dated
 * heading, where a release is stored, and the client package's version rule. Kept free of I/O so the
 * rules are tested on their own (test/process/spec/release.test.ts).
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const SEMVER = /^(\d+)\.(\d+)\.(\d+)$/;

/** A release version: MAJOR.MINOR.PATCH, no prerelease or build suffix. */
export function parseVersion(version: string): [number, number, number] {
  const match = SEMVER.exec(version);
  if (!match) throw new Error(`"${version}" is not a release version (MAJOR.MINOR.PATCH, e.g. 2.0.0)`);
  return [Number(match[1]), Number(match[2]), Number(match[3])];
}

/** Negative, zero or positive as `a` is below, equal to or above `b`. */
export function compareVersions(a: string, b: string): number {
  const [x, y] = [parseVersion(a), parseVersion(b)];
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return 0;
}

/** The released versions stored under `releasedDir` (one folder each, holding openapi.json), lowest first. */
export function storedReleases(releasedDir: string): string[] {
  if (!existsSync(releasedDir)) return [];
  return readdirSync(releasedDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && SEMVER.test(entry.name) && existsSync(join(releasedDir, entry.name, 'openapi.json')))
    .map((entry) => entry.name)
    .sort(compareVersions);
}

/** Where a release's bundle is kept: `<releasedDir>/<version>/openapi.json`. */
export const releaseFile = (releasedDir: string, version: string) => join(releasedDir, version, 'openapi.json');

/**
 * The changelog with `## <version> (not yet released)` turned into `## <version> (<date>)`. Throws
 * when the section is missing or already dated: a release is written up before it is made, and made once.
 */
export function dateChangelog(changelog: string, version: string, date: string): string {
  const escaped = version.replace(/\./g, '\\.');
  const heading = new RegExp(`^## ${escaped}(?: \\(([^)]*)\\))?[ \\t]*$`, 'm');
  const match = heading.exec(changelog);
  if (!match) throw new Error(`CHANGELOG.md has no "## ${version} (not yet released)" section: write the release's changes first`);
  if (match[1] !== 'not yet released') throw new Error(`CHANGELOG.md's ${version} section is already "${match[0]}": ${version} was released`);
  return changelog.replace(heading, `## ${version} (${date})`);
}

/**
 * The client package's version for an API release. The rule (CHANGELOG.md's header and the
 * client's README state it): the client's version IS the API version it was released with, so
 * `payroll-fee-service@2.0.0` speaks API 2.0.0 and a client's major says which breaking API it
 * follows. A fix to the client alone ships as a patch release of the API (a patch changes only prose,
 * examples or the client), never as a client version the API does not have.
 */
export const clientVersionFor = (apiVersion: string): string => (parseVersion(apiVersion), apiVersion);
