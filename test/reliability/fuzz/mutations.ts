/**
 * Broken requests for the fuzzer: each mutation takes a contract-following request and breaks one
 * thing (a field, a type, an amount, the encoding, the content type, the path, the query, a
 * header, the method), and says which statuses that makes legitimate beyond the operation's own.
 */
import fc from 'fast-check';
import { GLOBAL_STATUSES, type Operation, type Spec, fillPath } from '../spec.js';
import { type Request, pick } from './requests.js';

// ---------------------------------------------------------------------------------------------
// Broken requests: each mutation takes a valid request and breaks one thing.

/** A raw JSON fragment placed in the body text as is (1e400, "\ud800", duplicate keys…). */
class RawJson {
  constructor(readonly text: string) {}
}

export function serialise(value: unknown): string {
  const raws: string[] = [];
  const text = JSON.stringify(value, (_key, item: unknown) => {
    if (item instanceof RawJson) {
      raws.push(item.text);
      return `__RAW_${raws.length - 1}__`;
    }
    return item;
  });
  return text.replace(/"__RAW_(\d+)__"/g, (_match, n: string) => raws[Number(n)]!);
}

type Path = Array<string | number>;

/** Every location in a JSON value (first two items of arrays), root excluded. */
function locations(value: unknown, at: Path = []): Path[] {
  const found: Path[] = [];
  if (Array.isArray(value)) {
    value.slice(0, 2).forEach((item, i) => found.push([...at, i], ...locations(item, [...at, i])));
  } else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) found.push([...at, key], ...locations(item, [...at, key]));
  }
  return found;
}

function getAt(value: unknown, path: Path): unknown {
  return path.reduce<unknown>((node, key) => (node as Record<string | number, unknown> | undefined)?.[key], value);
}

function setAt(value: unknown, path: Path, replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path;
  const copy: Record<string | number, unknown> | unknown[] = Array.isArray(value) ? [...value] : { ...(value as Record<string, unknown>) };
  (copy as Record<string | number, unknown>)[head!] = setAt((value as Record<string | number, unknown>)[head!], rest, replacement);
  return copy;
}

function deleteAt(value: unknown, path: Path): unknown {
  const parentPath = path.slice(0, -1);
  const parent = getAt(value, parentPath);
  const key = path[path.length - 1]!;
  if (Array.isArray(parent))
    return setAt(
      value,
      parentPath,
      parent.filter((_item, i) => i !== key),
    );
  const { [key]: _removed, ...rest } = parent as Record<string, unknown>;
  return setAt(value, parentPath, rest);
}

const WEIRD_AMOUNTS = [
  '1e400',
  '-0',
  '"-0"',
  '"0.000000001"',
  '"  1"',
  '"1 "',
  '"1."',
  '".5"',
  '"1e400"',
  '"1E2"',
  '"+1"',
  '"0x1A"',
  '"1,000.00"',
  '"1 000"',
  '"NaN"',
  '"Infinity"',
  '"-1"',
  '"-0.01"',
  '"00.10"',
  '"1.123456789"',
  '"9999999999999999999999999999999999"',
  '"١٢٣"',
  '"１２３"',
  '1000',
  '0.1',
  '1e-7',
  '-1',
  'true',
  'null',
  '"1\\u0000"',
  '"\\u202e1"',
  '""',
  '" "',
  '"1.0.0"',
  '"--1"',
  `"${'9'.repeat(10_000)}"`,
  '1.7976931348623157e309',
];
const WEIRD_STRINGS = [
  '"\\ud800"',
  '"\\udfff"',
  '"a\\ud800b"',
  '"\\udc00\\ud800"',
  '"\\u202eAED"',
  '"\\u200f"',
  '"\\u0000"',
  '"x\\u0000y"',
  '"\\ufeffUSD"',
  '"😀"',
  '"e\\u0301"',
  '"\\u2028\\u2029"',
  '"ＵＳＤ"',
  '"usd"',
  '"\\u0001\\u001f"',
  '"7e570006-0000-4000-8000-00000000000١"',
  '"urn:uuid:7e570006-0000-4000-8000-000000000001"',
  '"{7e570006-0000-4000-8000-000000000001}"',
  '"7e5700060000400080000000000000001"',
  '"7E570006-0000-4000-8000-000000000001"',
  '"00000000-0000-0000-0000-000000000000"',
  '"\'; DROP TABLE payroll_requests; --"',
  '"<script>alert(1)</script>"',
  '"%00"',
  '"\\\\"',
  '"SAL\\u0000"',
  '"PAYROLL "',
];
const WRONG_TYPES = ['0', '-1', '1.5', 'true', 'false', 'null', '[]', '{}', '[1,2]', '{"a":1}', '"x"', '""'];
const BAD_PATH_VALUES = [
  'not-a-uuid',
  '0',
  'null',
  'undefined',
  '%00',
  '%2F',
  '..%2F..%2Fhealthz',
  '%E0%A4%A',
  '%',
  '%zz',
  'x'.repeat(1000),
  '7e570007-0000-4000-8000-00000000000G',
  '7e57000700004000800000000000000001',
  '%7B7e570007-0000-4000-8000-000000000001%7D',
  'urn:uuid:7e570007-0000-4000-8000-000000000001',
  '00000000-0000-0000-0000-000000000000',
  '7E570007-0000-4000-8000-000000000001',
  '%27%3B%20DROP%20TABLE%20payroll_requests%3B--',
  '%C3%84%C3%96',
  '%F0%9F%98%80',
  '%ED%A0%80',
  '%E2%80%AE7e570007-0000-4000-8000-000000000001',
  '%20',
  'usd',
  'US',
  'TOOLONG',
  'a.b',
  '__proto__',
  'constructor',
];
const STRUCTURAL_PATH_VALUES = ['', 'a/b', '7e570007-0000-4000-8000-000000000001/extra'];
const BAD_QUERIES = [
  'limit=1&limit=2',
  'status[]=PENDING',
  'unknown=1',
  'limit=',
  'status=',
  'cursor=',
  '%zz=1',
  'a=%E0%A4%A',
  '=',
  '&&&',
  'limit=1e1',
  'limit=0x10',
  'limit=%20%205',
  'limit=-1',
  'limit=0',
  'limit=101',
  'limit=1.5',
  'status=pending',
  'amount=1&amount=2',
  'beneficiaryId[]=x',
  '__proto__=1',
  'constructor[prototype][x]=1',
  'toString=1',
  'hasOwnProperty=1',
  'currency=%00',
  'amount=1e400',
  'amount=-0',
  'amount=%20%201',
  'amount=1.',
  'cursor=' + 'x'.repeat(300),
  'status=PENDING&status=CANCELLED',
  'limit[a]=1',
  'limit=%EF%BC%91',
  'x=' + '%'.repeat(50),
];
const CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=fuzzboundary',
  'application/xml',
  'none',
  'application/json; charset=utf-16',
  'application/json; charset=iso-8859-1',
  'application/jsonx',
  'application/merge-patch+json',
  '*/*',
  'text/json',
];
const MALFORMED_JSON = [
  '{',
  '{"a":}',
  "{'a':1}",
  '{"a":1,}',
  '[',
  '',
  'null',
  'nul',
  '"text"',
  '123',
  '{"a":1}}',
  '\u0000',
  '\ufeff{}',
  '{"a":"\u0001"}',
  '{"a" 1}',
  '[]',
  'true',
  '{"__proto__":{"x":1}}',
  '{"constructor":{"prototype":{"x":1}}}',
];
const BAD_HEADERS: Array<[string, string]> = [
  ['idempotency-key', ''],
  ['idempotency-key', ' '],
  ['idempotency-key', 'a b'],
  ['idempotency-key', 'k'.repeat(256)],
  ['idempotency-key', 'é'],
  ['x-request-id', 'r'.repeat(201)],
  ['x-request-id', ''],
  ['x-request-id', 'a b\tc'],
  ['accept', 'text/html'],
  ['accept', 'application/xml'],
  ['authorization', 'Bearer'],
  ['authorization', 'bearer '],
  ['authorization', 'Bearer  '],
  ['idempotency-key', '\t'],
];

export type Mutation =
  | { kind: 'removeField'; n: number }
  | { kind: 'extraField'; n: number; name: string; value: string }
  | { kind: 'wrongType'; n: number; value: string }
  | { kind: 'emptyArray'; n: number }
  | { kind: 'hugeArray'; n: number }
  | { kind: 'weirdAmount'; n: number; value: string }
  | { kind: 'longString'; n: number }
  | { kind: 'unicode'; n: number; value: string }
  | { kind: 'deepNesting'; where: 'root' | 'field'; shape: 'array' | 'object'; n: number }
  | { kind: 'duplicateKey'; n: number; value: string; wrongFirst: boolean }
  | { kind: 'contentType'; value: string }
  | { kind: 'overLimit' }
  | { kind: 'malformedJson'; value: string }
  | { kind: 'badPathParam'; n: number; value: string }
  | { kind: 'structuralPath'; n: number; value: string }
  | { kind: 'badQuery'; value: string }
  | { kind: 'dropQuery'; n: number }
  | { kind: 'badHeader'; header: [string, string] }
  | { kind: 'schemeCase'; value: 'bearer' | 'BEARER' | 'bEaReR' }
  | { kind: 'wrongMethod'; method: string };

export function mutationArb(op: Operation): fc.Arbitrary<Mutation> {
  const n = fc.nat();
  const body: Array<fc.WeightedArbitrary<Mutation>> = [
    { weight: 4, arbitrary: fc.record({ kind: fc.constant('removeField' as const), n }) },
    {
      weight: 3,
      arbitrary: fc.record({
        kind: fc.constant('extraField' as const),
        n,
        name: fc.oneof(fc.constantFrom('extra', '__proto__', 'constructor', 'id', 'status', 'customerId', ''), fc.string({ maxLength: 10 })),
        value: fc.constantFrom(...WRONG_TYPES),
      }),
    },
    { weight: 5, arbitrary: fc.record({ kind: fc.constant('wrongType' as const), n, value: fc.constantFrom(...WRONG_TYPES) }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('emptyArray' as const), n }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('hugeArray' as const), n }) },
    { weight: 6, arbitrary: fc.record({ kind: fc.constant('weirdAmount' as const), n, value: fc.constantFrom(...WEIRD_AMOUNTS) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('longString' as const), n }) },
    { weight: 5, arbitrary: fc.record({ kind: fc.constant('unicode' as const), n, value: fc.constantFrom(...WEIRD_STRINGS) }) },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('deepNesting' as const),
        where: fc.constantFrom('root' as const, 'field' as const),
        shape: fc.constantFrom('array' as const, 'object' as const),
        n,
      }),
    },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('duplicateKey' as const), n, value: fc.constantFrom(...WRONG_TYPES), wrongFirst: fc.boolean() }) },
    { weight: 3, arbitrary: fc.record({ kind: fc.constant('contentType' as const), value: fc.constantFrom(...CONTENT_TYPES) }) },
    { weight: 1, arbitrary: fc.constant({ kind: 'overLimit' as const }) },
    { weight: 3, arbitrary: fc.record({ kind: fc.constant('malformedJson' as const), value: fc.constantFrom(...MALFORMED_JSON) }) },
  ];
  const always: Array<fc.WeightedArbitrary<Mutation>> = [
    { weight: 3, arbitrary: fc.record({ kind: fc.constant('badQuery' as const), value: fc.constantFrom(...BAD_QUERIES) }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('badHeader' as const), header: fc.constantFrom(...BAD_HEADERS) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('wrongMethod' as const), method: fc.constantFrom('DELETE', 'PATCH', 'PUT', 'POST', 'GET') }) },
    // Not broken at all (RFC 7235: the scheme is case-insensitive): the request must fare as with `Bearer`.
    {
      weight: 1,
      arbitrary: fc.record({ kind: fc.constant('schemeCase' as const), value: fc.constantFrom('bearer' as const, 'BEARER' as const, 'bEaReR' as const) }),
    },
  ];
  const path: Array<fc.WeightedArbitrary<Mutation>> = op.parameters.some((p) => p.in === 'path')
    ? [
        { weight: 6, arbitrary: fc.record({ kind: fc.constant('badPathParam' as const), n, value: fc.constantFrom(...BAD_PATH_VALUES) }) },
        { weight: 1, arbitrary: fc.record({ kind: fc.constant('structuralPath' as const), n, value: fc.constantFrom(...STRUCTURAL_PATH_VALUES) }) },
      ]
    : [];
  const query: Array<fc.WeightedArbitrary<Mutation>> = op.parameters.some((p) => p.in === 'query')
    ? [
        { weight: 3, arbitrary: fc.record({ kind: fc.constant('dropQuery' as const), n }) },
        { weight: 3, arbitrary: fc.record({ kind: fc.constant('badQuery' as const), value: fc.constantFrom(...BAD_QUERIES) }) },
      ]
    : [];
  // An operation without a body still gets bodies sent to it (a POST may carry one anyway).
  const bodies = op.method === 'get' ? [] : op.bodySchema ? body : body.filter((_b, i) => i >= 10);
  return fc.oneof(...bodies, ...always, ...path, ...query);
}

const HUGE_STRING = 'x'.repeat(100_000);
const OVER_LIMIT = 'y'.repeat(12 * 1024 * 1024 + 1024);

/** Applies a mutation; returns the statuses it makes legitimate beyond the operation's own. */
export function mutate(spec: Spec, request: Request, mutation: Mutation): { request: Request; extra: number[] } {
  const r: Request = { ...request, headers: { ...request.headers } };
  const json = request.body && 'json' in request.body ? request.body.json : {};
  const places = locations(json);
  const at = (n: number, filter: (path: Path) => boolean = () => true): Path | undefined => pick(places.filter(filter), n);
  const stringPlaces = (path: Path) => typeof getAt(json, path) === 'string';
  const withBody = (value: unknown) => (r.body = { json: value });
  switch (mutation.kind) {
    case 'removeField': {
      const path = at(mutation.n);
      withBody(path ? deleteAt(json, path) : {});
      break;
    }
    case 'extraField': {
      const objects = [
        [] as Path,
        ...places.filter((path) => {
          const v = getAt(json, path);
          return !!v && typeof v === 'object' && !Array.isArray(v);
        }),
      ];
      const target = pick(objects, mutation.n)!;
      const node = getAt(json, target) as Record<string, unknown>;
      withBody(setAt(json, target, { ...node, [mutation.name]: new RawJson(mutation.value) }));
      break;
    }
    case 'wrongType': {
      const path = pick([[] as Path, ...places], mutation.n)!;
      withBody(setAt(json, path, new RawJson(mutation.value)));
      break;
    }
    case 'emptyArray': {
      const path = at(mutation.n, (p) => Array.isArray(getAt(json, p))) ?? at(mutation.n);
      withBody(path ? setAt(json, path, []) : []);
      break;
    }
    case 'hugeArray': {
      const path = at(mutation.n, (p) => Array.isArray(getAt(json, p))) ?? at(mutation.n) ?? ['items'];
      const model = (getAt(json, path) as unknown[] | undefined)?.[0] ?? getAt(json, path) ?? 1;
      withBody(
        setAt(
          json,
          path,
          Array.from({ length: 10_001 }, () => model),
        ),
      );
      break;
    }
    case 'weirdAmount': {
      const amounts = (p: Path) => ['amount', 'exchangeRate', 'rate'].includes(String(p[p.length - 1]));
      const path = at(mutation.n, amounts) ?? at(mutation.n, stringPlaces) ?? ['amount'];
      withBody(setAt(json, path, new RawJson(mutation.value)));
      break;
    }
    case 'longString': {
      const path = at(mutation.n, stringPlaces) ?? ['long'];
      withBody(setAt(json, path, HUGE_STRING));
      break;
    }
    case 'unicode': {
      const path = at(mutation.n, stringPlaces) ?? ['text'];
      withBody(setAt(json, path, new RawJson(mutation.value)));
      break;
    }
    case 'deepNesting': {
      const depth = 10_000;
      const nested = mutation.shape === 'array' ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
      if (mutation.where === 'root') r.body = { raw: nested };
      else withBody(setAt(json, at(mutation.n) ?? ['nested'], new RawJson(nested)));
      break;
    }
    case 'duplicateKey': {
      const text = serialise(json);
      const keys = json && typeof json === 'object' && !Array.isArray(json) ? Object.keys(json) : [];
      const key = pick(keys, mutation.n) ?? 'key';
      const inner = text.startsWith('{') && text.length > 2 ? text.slice(1, -1) : '';
      const duplicate = `${JSON.stringify(key)}:${mutation.value}`;
      r.body = { raw: mutation.wrongFirst ? `{${duplicate}${inner ? ',' + inner : ''}}` : `{${inner ? inner + ',' : ''}${duplicate}}` };
      break;
    }
    case 'contentType': {
      const text = serialise(json);
      if (mutation.value === 'application/x-www-form-urlencoded') {
        r.body = {
          raw: new URLSearchParams(
            Object.entries(json as Record<string, unknown>).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
          ).toString(),
        };
      } else if (mutation.value.startsWith('multipart/')) {
        r.body = {
          raw: `--fuzzboundary\r\nContent-Disposition: form-data; name="body"\r\nContent-Type: application/json\r\n\r\n${text}\r\n--fuzzboundary--\r\n`,
        };
      } else {
        r.body = { raw: mutation.value === 'none' ? new Blob([text]) : text }; // a Blob without a type: no Content-Type at all
      }
      if (mutation.value !== 'none') r.headers['content-type'] = mutation.value;
      return { request: r, extra: [] };
    }
    case 'overLimit':
      r.body = { raw: serialise({ ...(json as object), padding: OVER_LIMIT }) };
      break;
    case 'malformedJson':
      r.body = { raw: mutation.value };
      break;
    case 'badPathParam':
    case 'structuralPath': {
      const names = request.op.parameters.filter((p) => p.in === 'path').map((p) => p.name);
      const name = pick(names, mutation.n)!;
      const values = Object.fromEntries(names.map((key) => [key, encodeURIComponent(request.pathValues[key] ?? '')]));
      r.path = fillPath(request.op.path, { ...values, [name]: mutation.value });
      return { request: r, extra: mutation.kind === 'structuralPath' ? [GLOBAL_STATUSES.unknownPath, GLOBAL_STATUSES.wrongMethod] : [] };
    }
    case 'badQuery':
      r.query = [request.query, mutation.value].filter(Boolean).join('&');
      return { request: r, extra: [] };
    case 'dropQuery': {
      const entries = [...new URLSearchParams(request.query)];
      r.query = new URLSearchParams(entries.filter((_entry, i) => i !== mutation.n % Math.max(entries.length, 1))).toString();
      return { request: r, extra: [] };
    }
    case 'badHeader': {
      const [name, value] = mutation.header;
      r.headers[name] = value;
      return { request: r, extra: [] };
    }
    case 'schemeCase':
      if (r.headers.authorization) r.headers.authorization = r.headers.authorization.replace(/^Bearer /, `${mutation.value} `);
      return { request: r, extra: [] };
    case 'wrongMethod': {
      const defined = Object.keys(spec.raw.paths[request.op.path] ?? {}).map((m) => m.toUpperCase());
      if (defined.includes(mutation.method)) return { request: r, extra: [] };
      r.method = mutation.method;
      if (r.method === 'GET') r.body = undefined;
      return { request: r, extra: [GLOBAL_STATUSES.wrongMethod] };
    }
  }
  if (r.method === 'GET') r.body = undefined; // fetch cannot send one
  return { request: r, extra: [] };
}
