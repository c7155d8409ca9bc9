import { validatorRequire } from './validatorModules.js';

type PathToRegexp = (path: unknown, options?: Record<string, unknown>) => { regexp: RegExp; keys: unknown[] };
interface PathToRegexpModule {
  pathToRegexp: PathToRegexp & { cached?: true };
}

/** Distinct (route, options) pairs remembered at most: the spec's routes are a few dozen. */
const MAX_ROUTES = 1_000;

/**
 * express-openapi-validator (5.6) finds the operation of every request by compiling each of the
 * spec's routes to a regular expression with path-to-regexp, one after the other until one
 * matches, on every request (its lookupRoute): the same work for every request, and a visible
 * part of the server's time under load. The compiled expression depends only on the route and the two options it
 * passes, so this memoises path-to-regexp's `pathToRegexp` in the very module instance the
 * validator requires; the matching itself (and so every check) is unchanged. The expressions
 * have no `g` or `y` flag, so sharing one keeps no state between requests. Any other call shape
 * (arrays, token data, other options) goes straight through. Idempotent.
 */
export function cacheValidatorRouteRegexps(): void {
  const module = validatorRequire('path-to-regexp') as PathToRegexpModule;
  const compile = module.pathToRegexp;
  if (compile.cached) return;
  // One map per combination of the two options, so that a lookup builds no key: it runs for every route on every request.
  const compiled = [0, 1, 2, 3].map(() => new Map<string, { regexp: RegExp; keys: readonly unknown[] }>());
  const cached: PathToRegexp = (path, options = {}) => {
    if (typeof path !== 'string' || !onlyKnownOptions(options)) return compile(path, options);
    const byPath = compiled[(options.sensitive ? 1 : 0) + (options.strict ? 2 : 0)]!;
    let hit = byPath.get(path);
    if (!hit) {
      const { regexp, keys } = compile(path, options);
      hit = { regexp, keys: Object.freeze(keys) };
      if (byPath.size < MAX_ROUTES) byPath.set(path, hit);
    }
    return { regexp: hit.regexp, keys: hit.keys as unknown[] };
  };
  module.pathToRegexp = Object.assign(cached, { cached: true as const });
}

/** Options of no other name than the two the validator passes (as booleans, or left out). */
function onlyKnownOptions(options: Record<string, unknown>): boolean {
  for (const name in options) {
    if (name !== 'sensitive' && name !== 'strict') return false;
    if (options[name] !== undefined && typeof options[name] !== 'boolean') return false;
  }
  return true;
}
