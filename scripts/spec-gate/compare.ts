/**
 * The breaking-change gate's judgement: the spec against the last released one, compared by
 * api-smart-diff, which classifies each change for a client (a property removed from a response
 * or a request field made required is breaking; a new operation or optional field is not).
 */
import { type Diff, apiCompare } from 'api-smart-diff';

interface Spec {
  info?: { version?: string };
}

export interface SpecChange {
  releasedVersion: string;
  currentVersion: string;
  breaking: string[];
  nonBreaking: string[];
  /** Why the gate fails; empty when it passes. */
  failures: string[];
}

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/** One line per change: the operation it reaches ("POST /v1/…"), then the tool's description. */
function describe(diff: Diff): string {
  const [section, pathOrName, method] = diff.path.map(String);
  const where = (section === 'paths' || section === 'webhooks') && method && METHODS.has(method) ? `${method.toUpperCase()} ${pathOrName}: ` : '';
  const text = diff.description?.replace(/^\s*in /, '').trim() || `${diff.action} ${diff.path.join('/')}`;
  return (where + text).trim();
}

function major(version: string): number {
  const match = /^(\d+)\.(\d+)\.(\d+)/.exec(version);
  if (!match) throw new Error(`info.version "${version}" is not a semantic version (MAJOR.MINOR.PATCH)`);
  return Number(match[1]);
}

/** The versions of the changelog's `## <version>` headings. */
function changelogVersions(changelog: string): string[] {
  return [...changelog.matchAll(/^## \[?v?(\d+\.\d+\.\d+[^\]\s]*)\]?/gm)].map((match) => match[1]!);
}

/**
 * Compares two bundled specs. Changes under `components` are left out: each one that matters is
 * also reported at the operations it reaches, with their names.
 */
export function compareSpecs(released: Spec, current: Spec, changelog: string): SpecChange {
  const releasedVersion = released.info?.version ?? '';
  const currentVersion = current.info?.version ?? '';
  const diffs = apiCompare(released, current).diffs.filter((diff) => diff.path[0] !== 'components');
  const lines = (type: Diff['type']) => [...new Set(diffs.filter((diff) => diff.type === type).map(describe))];
  const breaking = lines('breaking');
  const nonBreaking = lines('non-breaking');
  const failures: string[] = [];
  const [releasedMajor, currentMajor] = [major(releasedVersion), major(currentVersion)];
  if (currentMajor < releasedMajor) failures.push(`info.version ${currentVersion} is below the released ${releasedVersion}`);
  if (breaking.length > 0 && currentMajor === releasedMajor) {
    failures.push(
      `${breaking.length} breaking change(s) within major version ${releasedMajor}: make them additive, or release them as ` +
        `${releasedMajor + 1}.0.0 (info.version in openapi/openapi.yaml) with a CHANGELOG.md entry`,
    );
  }
  if (!changelogVersions(changelog).includes(currentVersion))
    failures.push(`CHANGELOG.md has no "## ${currentVersion}" section for info.version ${currentVersion}`);
  return { releasedVersion, currentVersion, breaking, nonBreaking, failures };
}
