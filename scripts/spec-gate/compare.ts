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

/** A short JSON rendering of a changed value. */
function short(value: unknown): string {
  const text = JSON.stringify(value) ?? 'nothing';
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

/**
 * A change as [where, what]: the operation it reaches ("POST /v1/…", empty outside operations), and
 * api-smart-diff's description or, where that is blank or vague ("[Added] annotation (25)"), the
 * changed location and values.
 */
function describe(diff: Diff): [string, string] {
  const [section, pathOrName, method, ...inside] = diff.path.map(String);
  const isOperation = (section === 'paths' || section === 'webhooks') && method !== undefined && METHODS.has(method);
  const where = isOperation ? `${method.toUpperCase()} ${pathOrName}` : '';
  const text = diff.description?.trim() ?? '';
  if (text.startsWith('[') && !/^\[\w+\] annotation \(/.test(text)) return [where, text];
  const location = (isOperation ? inside : diff.path.map(String)).join('/').replace(/\/allOf\/0(?=\/|$)/g, '');
  const values = diff.action === 'add' ? short(diff.after) : diff.action === 'remove' ? short(diff.before) : `${short(diff.before)} → ${short(diff.after)}`;
  return [where, `[${diff.action}] ${location}: ${values}`];
}

/** One line per distinct change, naming every operation it reaches: "GET /a, POST /b: what". */
function summarize(diffs: Diff[]): string[] {
  const operationsByChange = new Map<string, Set<string>>();
  for (const [where, what] of diffs.map(describe)) {
    const operations = operationsByChange.get(what) ?? new Set<string>();
    if (where) operations.add(where);
    operationsByChange.set(what, operations);
  }
  return [...operationsByChange].map(([what, operations]) => (operations.size > 0 ? `${[...operations].join(', ')}: ${what}` : what));
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
  const lines = (type: Diff['type']) => summarize(diffs.filter((diff) => diff.type === type));
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
