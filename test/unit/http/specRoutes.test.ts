// The router of the spec's paths: the path it finds is the one whose validator then checks the
// request, so it must choose as the validator's own routing chooses.
import { describe, expect, it } from 'vitest';
import { type ApiDoc, SpecRouter, specRouter } from '../../../src/http/pipeline/specRoutes.js';

const router = (paths: string[]) =>
  new SpecRouter({
    openapi: '3.1.0',
    info: { title: 't', version: '1' },
    paths: Object.fromEntries(paths.map((path) => [path, { get: { operationId: path } }])),
  } as unknown as ApiDoc);

describe('SpecRouter', () => {
  const things = router(['/v1/things/{thingId}', '/v1/things/search', '/v1/things/{thingId}/parts/{partId}', '/v1/things/{thingId}/parts/count']);

  it('prefers a literal segment to a parameter, whatever the order of the spec', () => {
    expect(things.find('/v1/things/search')?.path).toBe('/v1/things/search');
    expect(things.find('/v1/things/abc')?.path).toBe('/v1/things/{thingId}');
    expect(things.find('/v1/things/abc/parts/count')?.path).toBe('/v1/things/{thingId}/parts/count');
    expect(things.find('/v1/things/abc/parts/p1')?.path).toBe('/v1/things/{thingId}/parts/{partId}');
  });

  it('matches as Express’s default routing does: any case, an optional trailing slash', () => {
    expect(things.find('/V1/Things/Search')?.path).toBe('/v1/things/search');
    expect(things.find('/v1/things/abc/')?.path).toBe('/v1/things/{thingId}');
  });

  it('finds nothing for a path the spec does not have', () => {
    expect(things.find('/v1/things')).toBeUndefined();
    expect(things.find('/v1/things/abc/parts')).toBeUndefined();
    expect(things.find('/v1/things/a/b/c/d/e')).toBeUndefined();
  });

  it('finds every path of the spec, with a parameter’s value in place of each parameter', async () => {
    const { router: spec } = await specRouter();
    expect(spec.routes.length).toBeGreaterThan(0);
    for (const route of spec.routes) {
      const path = route.path.replace(/\{[^}]+\}/g, '7b1e0003-0000-4000-8000-000000000001');
      expect(spec.find(path)?.path).toBe(route.path);
    }
  });
});
