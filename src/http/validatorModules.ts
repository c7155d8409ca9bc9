import { createRequire } from 'node:module';

/**
 * `require` as express-openapi-validator's own code resolves it: the very module instances the
 * validator loads (its path-to-regexp, its middlewares), for the patches that shorten its routing
 * (routeRegexpCache.ts, validatorRouteLookup.ts).
 */
export const validatorRequire = createRequire(createRequire(import.meta.url).resolve('express-openapi-validator'));
