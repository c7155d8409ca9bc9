// npm run mock [-- --port 4010] [--host 127.0.0.1] [--release <version> | --spec <bundled spec>]: the
// mock server (scripts/mock/app.ts). --release serves a stored release (openapi/released/<version>/,
// see `npm run release`), so a client's CI can pin the contract it was written against; without
// either it bundles the working tree's spec first (npm run bundle) and serves dist/openapi.json.
// Stops on SIGTERM or Ctrl-C.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { bundleSpec } from './support/bundle.js';
import { createMockApp } from './mock/app.js';
import { releaseFile, storedReleases } from './release/steps.js';

const USAGE =
  'usage: npm run mock -- [--port <port, default 4010>] [--host <address, default 127.0.0.1>] [--release <released version, e.g. 2.0.0> | --spec <bundled spec (JSON); default: bundle and serve dist/openapi.json>]';
const RELEASED = fileURLToPath(new URL('../openapi/released/', import.meta.url));

/** The stored bundle of a release; an unknown version names the ones there are. */
function releasedSpec(version: string): string {
  const stored = storedReleases(RELEASED);
  if (!stored.includes(version)) throw new Error(`--release ${version}: no such release (released: ${stored.join(', ') || 'none'})`);
  return releaseFile(RELEASED, version);
}

function options(): { port: number; host: string; spec: string } {
  try {
    const { values } = parseArgs({
      options: {
        port: { type: 'string', default: '4010' },
        host: { type: 'string', default: '127.0.0.1' },
        spec: { type: 'string' },
        release: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
    if (values.help) {
      console.log(USAGE);
      process.exit(0);
    }
    const port = Number(values.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be a port number, not "${values.port}"`);
    if (values.spec && values.release) throw new Error('give --release or --spec, not both');
    if (values.spec && !existsSync(values.spec)) throw new Error(`${values.spec} does not exist`);
    if (values.release) return { port, host: values.host, spec: releasedSpec(values.release) };
    return { port, host: values.host, spec: values.spec ?? bundleSpec() };
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    process.exit(2);
  }
}

const { port, host, spec } = options();
const server = createMockApp(spec).listen(port, host, () => {
  const address = server.address();
  const actual = typeof address === 'object' && address ? address.port : port;
  console.log(
    `mock of ${spec} listening on http://${host.includes(':') ? `[${host}]` : host}:${actual} (any bearer token; Prefer: example=<name> or code=<status>)`,
  );
});
server.on('error', (error) => {
  console.error(`cannot listen on ${host}:${port}: ${error.message}`);
  process.exit(1);
});
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => server.close(() => process.exit(0)));
