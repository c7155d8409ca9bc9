// npm run -s token -- --user <userId> [--ttl <seconds>]: prints a bearer token signed with JWT_SECRET.
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.js';
import { signAccessToken } from '../src/http/tokens.js';

const { values } = parseArgs({ options: { user: { type: 'string' }, ttl: { type: 'string', default: '3600' } } });
const ttl = Number(values.ttl);
if (!values.user || !/^[0-9a-f-]{36}$/i.test(values.user) || !Number.isInteger(ttl) || ttl <= 0) {
  console.error('usage: npm run -s token -- --user <userId (uuid)> [--ttl <seconds>]');
  process.exit(2);
}
const config = loadConfig();
if (config.jwt.jwksUrl) {
  console.error('JWT_JWKS_URL is set: tokens come from your identity provider, not from this script');
  process.exit(2);
}
console.log(await signAccessToken(config.jwt, values.user, ttl));
