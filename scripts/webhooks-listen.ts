// npm run webhooks:listen -- --forward-to <url> [--base-url <url>] [--email <address> | --user <id> | --token <token>] [--port <n>]:
// registers a loopback webhook endpoint for a user of the world (with a development token, as
// `npm run token` signs it), prints every event as it arrives, verifies its signature and forwards
// it to <url>. For a developer's machine: refused where `npm run token` is (an identity provider's
// JWKS configured) and in production.
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config/config.js';
import { signAccessToken } from '../src/http/access/tokens.js';
import { resolveUser } from './support/tokenUser.js';
import { startListener } from './support/webhookListener.js';

const USAGE = `usage: npm run webhooks:listen -- --forward-to <url> [--base-url <service, default http://localhost:3000>]
         [--email <address, default dana.haddad@acme-trading.example> | --user <userId> | --token <bearer>] [--port <n>]

Registers a webhook endpoint on 127.0.0.1 for the user (the service must run with
WEBHOOK_ALLOW_LOOPBACK=true), prints each event as it arrives, checks its Payroll-Signature and
forwards it, unchanged and with its headers, to --forward-to. Ctrl-C deletes the endpoint.
Development only.`;

function fail(message: string, status = 2): never {
  console.error(message);
  process.exit(status);
}

const config = loadConfig();
if (config.jwt.jwksUrl || config.nodeEnv === 'production') {
  fail('webhooks:listen is for development: refused with JWT_JWKS_URL set or NODE_ENV=production (as npm run token is)');
}
let values: Record<string, string | boolean | undefined>;
try {
  ({ values } = parseArgs({
    options: {
      'forward-to': { type: 'string' },
      'base-url': { type: 'string', default: process.env.BASE_URL ?? 'http://localhost:3000' },
      email: { type: 'string' },
      user: { type: 'string' },
      token: { type: 'string' },
      port: { type: 'string', default: '0' },
      help: { type: 'boolean', short: 'h' },
    },
  }));
} catch (error) {
  fail(`${(error as Error).message}\n\n${USAGE}`);
}
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const forwardTo = values['forward-to'];
const port = Number(values.port);
if (typeof forwardTo !== 'string' || !URL.canParse(forwardTo) || !Number.isInteger(port) || port < 0 || port > 65535) fail(USAGE);

async function developmentToken(): Promise<string> {
  if (typeof values.token === 'string') return values.token;
  const name =
    typeof values.user === 'string' ? { user: values.user } : { email: typeof values.email === 'string' ? values.email : 'dana.haddad@acme-trading.example' };
  const resolved = await resolveUser(config, name).catch((error: unknown) => fail(`cannot look up the user: ${(error as Error).message}`, 1));
  if ('problem' in resolved) fail(resolved.problem, 1);
  return signAccessToken(config.jwt, resolved.id, 24 * 3600);
}

const listener = await startListener({ baseUrl: String(values['base-url']), token: await developmentToken(), forwardTo, port }).catch((error: unknown) =>
  fail(`${(error as Error).message}\n(start the service with WEBHOOK_ALLOW_LOOPBACK=true so that a loopback endpoint is accepted)`, 1),
);
console.log(`Ready: endpoint ${listener.endpointId} at ${listener.url}, forwarding to ${forwardTo}`);
console.log(`Signing secret (verify the forwarded deliveries with it): ${listener.secret}`);
const shutdown = () => void listener.stop().finally(() => process.exit(0));
process.once('SIGINT', shutdown);
process.once('SIGTERM', shutdown);
