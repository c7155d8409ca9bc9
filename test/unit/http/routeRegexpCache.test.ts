import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { cacheValidatorRouteRegexps } from '../../../src/http/routeRegexpCache.js';

type Compiled = { regexp: RegExp; keys: Array<{ name: string }> };
const validatorRequire = createRequire(createRequire(import.meta.url).resolve('express-openapi-validator'));
const pathToRegexpOf = () => (validatorRequire('path-to-regexp') as { pathToRegexp: (path: unknown, options?: object) => Compiled }).pathToRegexp;

describe('the validator route expressions, compiled once', () => {
  it('gives the validator the same expression for the same route, matching as before', () => {
    const original = pathToRegexpOf()('/v1/customers/payroll/requests/:payrollRequestId', { sensitive: false, strict: false });
    cacheValidatorRouteRegexps();
    cacheValidatorRouteRegexps();
    const compile = pathToRegexpOf();
    const first = compile('/v1/customers/payroll/requests/:payrollRequestId', { sensitive: false, strict: false });
    const again = compile('/v1/customers/payroll/requests/:payrollRequestId', { sensitive: false, strict: false });
    expect(again.regexp).toBe(first.regexp);
    expect(first.regexp.source).toBe(original.regexp.source);
    expect(first.keys.map((key) => key.name)).toEqual(['payrollRequestId']);
    expect(first.regexp.exec('/v1/customers/payroll/requests/abc')?.[1]).toBe('abc');
    expect(first.regexp.exec('/v1/customers/payroll/requests/abc/cancel')).toBeNull();
    // Other options are another expression, compiled as path-to-regexp compiles them.
    const sensitive = compile('/v1/customers/payroll/requests/:payrollRequestId', { sensitive: true, strict: false });
    expect(sensitive.regexp).not.toBe(first.regexp);
    expect(sensitive.regexp.exec('/V1/customers/payroll/requests/abc')).toBeNull();
    expect(() => compile('/v1/x', { sensitive: false, strict: false, end: false })).not.toThrow();
  });
});
