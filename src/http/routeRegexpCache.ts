import { createRequire } from 'node:module';

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
  const validatorRequire = createRequire(createRequire(import.meta.url).resolve('express-openapi-validator'));
  const module = validatorRequire('path-to-regexp') as PathToRegexpModule;
  const compile = module.pathToRegexp;
  if (compile.cached) return;
  const compiled = new Map<string, { regexp: RegExp; keys: readonly unknown[] }>();
  const cached: PathToRegexp = (path, options = {}) => {
    const { sensitive, strict, ...others } = options;
    if (typeof path !== 'string' || Object.keys(others).length > 0) return compile(path, options);
    const key = `${String(sensitive)}|${String(strict)}|${path}`;
    let hit = compiled.get(key);
    if (!hit) {
      const { regexp, keys } = compile(path, options);
      hit = { regexp, keys: Object.freeze(keys) };
      if (compiled.size < MAX_ROUTES) compiled.set(key, hit);
    }
    return { regexp: hit.regexp, keys: hit.keys as unknown[] };
  };
  module.pathToRegexp = Object.assign(cached, { cached: true as const });
}
