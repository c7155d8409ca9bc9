// A Redocly decorator (redocly.yaml: `plugins` and `decorators: payroll/code-samples`): at bundle time
// it gives every operation `x-codeSamples` written from the operation's own examples, so the path
// files stay hand-written and the samples can never drift from the examples they show.
//  - curl, one per request example (or one per operation without a body), reading the service's URL
//    from `$PAYROLL_API` and the bearer token from `$TOKEN`;
//  - TypeScript through the published client (`payroll-fee-service`), one per request example too.
// Redoc shows them beside each operation (`npm run docs`), and the bundle (dist/openapi.json) carries
// them. test/browser/docs/codeSamples.test.ts compiles every TypeScript sample and runs every curl sample.

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** Follows `$ref`s (relative to the file they are written in) until a plain node. */
function resolved(ctx, node, from) {
  let current = node;
  let location = from;
  while (current && typeof current === 'object' && typeof current.$ref === 'string') {
    const found = ctx.resolve(current, location);
    if (!found.node) throw new Error(`code-samples: cannot resolve ${current.$ref}`);
    current = found.node;
    location = found.location?.source?.absoluteRef ?? location;
  }
  return { node: current, from: location };
}

/** The operation's examples as plain values: path and query values, the request bodies in document order. */
function examplesOf(ctx, pathItem, operation, from) {
  const parameters = [...(pathItem.parameters ?? []), ...(operation.parameters ?? [])].map((parameter) => resolved(ctx, parameter, from));
  const bodies = [];
  const requestBody = operation.requestBody && resolved(ctx, operation.requestBody, from);
  for (const [contentType, media] of Object.entries(requestBody?.node.content ?? {})) {
    for (const [name, example] of Object.entries(media.examples ?? {})) {
      bodies.push({
        name,
        contentType,
        summary: resolved(ctx, example, requestBody.from).node.summary,
        value: resolved(ctx, example, requestBody.from).node.value,
      });
    }
  }
  return { parameters: parameters.map(({ node }) => node), bodies };
}

/** Path and query values of the parameters' examples; a named parameter example goes with its request example only. */
function parameterValues(parameters, exampleName, bodyFields) {
  const path = {};
  const query = [];
  for (const parameter of parameters) {
    if (parameter.in === 'header') continue;
    const value = (exampleName && parameter.examples?.[exampleName]?.value) ?? parameter.example;
    if (value === undefined) continue;
    if (parameter.in === 'path') path[parameter.name] = String(value);
    else if (parameter.in === 'query' && !bodyFields.has(parameter.name)) {
      for (const item of Array.isArray(value) ? value : [value]) query.push([parameter.name, item]);
    }
  }
  return { path, query };
}

function successOf(operation) {
  const [, response] = Object.entries(operation.responses ?? {}).find(([code]) => /^2/.test(code)) ?? [];
  const types = Object.keys(response?.content ?? {});
  return { contentType: types[0] ?? 'application/json', several: types.length > 1 };
}

const shellQuote = (text) => `'${String(text).replace(/'/g, `'\\''`)}'`;

function curlSample({ method, url, secured, accept, body }) {
  const lines = [`curl -sS -X ${method.toUpperCase()} "$PAYROLL_API${url}"`];
  if (secured) lines.push(`-H "Authorization: Bearer $TOKEN"`);
  if (accept !== 'application/json') lines.push(`-H ${shellQuote(`Accept: ${accept}`)}`);
  if (!body) return lines.join(' \\\n  ');
  lines.push(`-H ${shellQuote(`Content-Type: ${body.contentType}`)}`, '--data-binary @-');
  const text = typeof body.value === 'string' ? body.value.replace(/\n$/, '') : JSON.stringify(body.value, null, 2);
  return `${lines.join(' \\\n  ')} <<'BODY'\n${text}\nBODY`;
}

/** A JSON value as a TypeScript literal (identifier keys unquoted, strings single-quoted), indented. */
function literal(value, indent) {
  const json = JSON.stringify(value, null, 2)
    .replace(/^( *)"([A-Za-z_$][\w$]*)":/gm, '$1$2:')
    .replace(/"((?:[^"\\]|\\.)*)"/g, (_match, inner) => `'${inner.replace(/\\"/g, '"').replace(/'/g, "\\'")}'`);
  return json.replace(/\n/g, `\n${indent}`);
}

function typescriptSample({ method, path, pathValues, query, accept, several, body, idempotent }) {
  const init = [];
  const params = [];
  if (Object.keys(pathValues).length > 0) params.push(`path: ${literal(pathValues, '      ')}`);
  if (query.length > 0) {
    const grouped = {};
    for (const [name, value] of query) grouped[name] = name in grouped ? [grouped[name], value].flat() : value;
    params.push(`query: ${literal(grouped, '      ')}`);
  }
  if (params.length > 0) init.push(`params: {\n      ${params.join(',\n      ')},\n    }`);
  if (body && typeof body.value === 'string') {
    init.push(`body: ${JSON.stringify(body.value).replace(/'/g, "\\'").replace(/^"|"$/g, "'").replace(/\\"/g, '"')}`);
    init.push(
      `headers: { 'Content-Type': '${body.contentType}' }`,
      '// The file is sent as it is (openapi-fetch would JSON-encode a string).',
      'bodySerializer: (text: unknown) => String(text)',
    );
  } else if (body) init.push(`body: ${literal(body.value, '    ')}`);
  if (idempotent) init.push('// One fresh key per intent: a retry with the same key replays the first answer.', 'idempotencyKey: randomUUID()');
  const csv = accept !== 'application/json';
  if (csv) init.push(`headers: { Accept: '${accept}' }`, "parseAs: 'text'");
  // An answer of several media types (JSON or CSV) is typed as either: the envelope is read without unwrap.
  else if (several) init.push("headers: { Accept: 'application/json' }");
  const raw = csv || several;
  // A comment line stands alone; every other entry ends with a comma.
  const lines = init.map((entry) => (entry.startsWith('//') ? entry : `${entry},`));
  const args = init.length > 0 ? `, {\n    ${lines.join('\n    ')}\n  }` : '';
  const call = `await api.${method.toUpperCase()}('${path}'${args})`;
  const imports = [raw ? 'createPayrollClient, PayrollApiError' : 'createPayrollClient, unwrap'];
  const head = [
    ...(idempotent ? ["import { randomUUID } from 'node:crypto';"] : []),
    `import { ${imports[0]} } from 'payroll-fee-service';`,
    '',
    "const api = createPayrollClient({ baseUrl: process.env.PAYROLL_API ?? 'http://localhost:3000', token: process.env.TOKEN });",
    '',
  ];
  if (!raw) return [...head, `const data = unwrap(\n  ${call},\n);`, 'console.log(data);'].join('\n');
  return [
    ...head,
    // Not wrapped in unwrap(): two spaces less of indentation.
    `const { data, response } = ${call.replace(/\n {2}/g, '\n')};`,
    "if (!response.ok) throw new PayrollApiError(response.status, 'UNEXPECTED_RESPONSE', `${response.status} answered`, response.headers.get('X-Request-Id') ?? undefined);",
    'console.log(data);',
  ].join('\n');
}

/** The samples of one operation: curl then TypeScript for each request example (or the parameters' examples). */
function samplesFor({ path, method, operation, parameters, bodies, secured }) {
  const { contentType: accept, several } = successOf(operation);
  const idempotent = parameters.some((parameter) => parameter.in === 'header' && parameter.name === 'Idempotency-Key');
  const cases = bodies.length > 0 ? bodies : [undefined];
  const samples = [];
  for (const body of cases) {
    const bodyFields = new Set(body?.contentType === 'application/json' ? Object.keys(body.value ?? {}) : []);
    const { path: pathValues, query } = parameterValues(parameters, body?.name, bodyFields);
    const url = path.replace(/\{([^}]+)\}/g, (_match, name) => encodeURIComponent(pathValues[name] ?? `{${name}}`));
    const search = query.map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`).join('&');
    const suffix = cases.length > 1 ? `: ${body.summary ?? body.name}` : '';
    const sample = { method, path, pathValues, query, accept, several, body, idempotent, secured, url: search ? `${url}?${search}` : url };
    samples.push({ lang: 'Shell', label: `curl${suffix}`, source: curlSample(sample) });
    samples.push({ lang: 'TypeScript', label: `TypeScript${suffix}`, source: typescriptSample(sample) });
  }
  return samples;
}

function codeSamples() {
  let rootSecurity = [];
  return {
    Root: {
      enter(root) {
        rootSecurity = root.security ?? [];
      },
    },
    PathItem: {
      leave(pathItem, ctx) {
        const path = ctx.key;
        if (typeof path !== 'string' || !path.startsWith('/')) return;
        const from = ctx.location.source.absoluteRef;
        for (const method of METHODS) {
          const operation = pathItem[method];
          if (!operation) continue;
          const { parameters, bodies } = examplesOf(ctx, pathItem, operation, from);
          const secured = (operation.security ?? rootSecurity).length > 0;
          operation['x-codeSamples'] = samplesFor({ path, method, operation, parameters, bodies, secured });
        }
      },
    },
  };
}

export default function payrollPlugin() {
  return {
    id: 'payroll',
    decorators: {
      oas3: { 'code-samples': codeSamples },
    },
  };
}
