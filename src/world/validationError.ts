/** The error every world check throws, and the JSON paths it names. */

/** A world file that breaks the schema or refers to something it does not define. */
export class WorldValidationError extends Error {
  /** The offending JSON path, e.g. `world.beneficiaries[3].nationality`. */
  readonly path: string;
  /** What is wrong there, in words. */
  readonly problem: string;

  constructor(path: string, problem: string) {
    super(`${path}: ${problem}`);
    this.name = 'WorldValidationError';
    this.path = path;
    this.problem = problem;
  }
}

export type PathSegment = string | number;
/** The path of a field of the entry being checked, e.g. of `world.payrollRequests[2]`. */
export type At = (...rest: PathSegment[]) => PathSegment[];

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** `['beneficiaries', 3, 'nationality']` → `world.beneficiaries[3].nationality`. */
export function toPath(segments: readonly PathSegment[]): string {
  let path = 'world';
  for (const segment of segments) {
    if (typeof segment === 'number' || /^(0|[1-9][0-9]*)$/.test(segment)) path += `[${segment}]`;
    else if (IDENTIFIER.test(segment)) path += `.${segment}`;
    else path += `[${JSON.stringify(segment)}]`;
  }
  return path;
}

export function fail(segments: readonly PathSegment[], problem: string): never {
  throw new WorldValidationError(toPath(segments), problem);
}

/**
 * Map of key → index; throws on the second occurrence of a key. Pass `seen` to make keys
 * unique across several lists (split ids across all requests, for instance).
 */
export function uniqueIndex<T>(
  items: readonly T[],
  keyOf: (item: T) => string,
  pathOf: (index: number) => PathSegment[],
  what: string,
  seen = new Map<string, PathSegment[]>(),
): Map<string, number> {
  const index = new Map<string, number>();
  items.forEach((item, i) => {
    const key = keyOf(item);
    const earlier = seen.get(key);
    if (earlier) fail(pathOf(i), `duplicate ${what} ${key} (already used at ${toPath(earlier)})`);
    seen.set(key, pathOf(i));
    index.set(key, i);
  });
  return index;
}
