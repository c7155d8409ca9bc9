/** The browser console's settings (docs/console.md). */
import { DEVELOPMENT_JWT_SECRET, SETTINGS } from './settings.js';
import { ConfigError, read } from './values.js';

/** What the console needs to sign in through the identity provider (OpenID Connect, authorization code with PKCE). */
export interface ConsoleOidc {
  /** The provider the browser is sent to (CONSOLE_OIDC_ISSUER, default JWT_ISSUER): its discovery document is at /.well-known/openid-configuration. */
  issuer: string;
  /** The console's public client at the provider (CONSOLE_OIDC_CLIENT_ID): no secret, PKCE instead. */
  clientId: string;
  /** The scopes asked for (CONSOLE_OIDC_SCOPE, default "openid"). */
  scope: string;
  /** The resource indicator (RFC 8707) asked for, so that the access token names the API as its audience (CONSOLE_OIDC_RESOURCE, default JWT_AUDIENCE). */
  resource: string | null;
}

export interface ConsoleConfig {
  /** Its built files (CONSOLE_DIR, default dist/console: `npm run build:console`). */
  dir: string;
  /** Whether its development sign-in (a list of the world's users, each with a token) is offered. */
  developmentSignIn: boolean;
  /** OpenID Connect sign-in, on when CONSOLE_OIDC_CLIENT_ID is set. */
  oidc: ConsoleOidc | null;
}

/**
 * The development sign-in mints tokens with the committed secret: it is offered only where that
 * secret already lets anyone mint them (no identity provider, not production) and on the embedded
 * database, never against a real one (DATABASE_URL).
 */
export function consoleConfig(env: NodeJS.ProcessEnv, nodeEnv: string): ConsoleConfig {
  const secretIsDevelopment = !read(env, SETTINGS.JWT_JWKS_URL) && read(env, SETTINGS.JWT_SECRET) === DEVELOPMENT_JWT_SECRET;
  return {
    dir: read(env, SETTINGS.CONSOLE_DIR),
    developmentSignIn: secretIsDevelopment && nodeEnv !== 'production' && !read(env, SETTINGS.DATABASE_URL),
    oidc: consoleOidc(env),
  };
}

/** The provider's tokens are verified with its keys (JWT_JWKS_URL): without them the API would refuse every token it issues. */
function consoleOidc(env: NodeJS.ProcessEnv): ConsoleOidc | null {
  const clientId = read(env, SETTINGS.CONSOLE_OIDC_CLIENT_ID);
  if (!clientId) return null;
  const issuer = read(env, SETTINGS.CONSOLE_OIDC_ISSUER);
  if (!issuer) throw new ConfigError('CONSOLE_OIDC_CLIENT_ID needs the identity provider: set JWT_ISSUER (or CONSOLE_OIDC_ISSUER)');
  if (!URL.canParse(issuer)) throw new ConfigError(`CONSOLE_OIDC_ISSUER (or JWT_ISSUER) must be a URL, got "${issuer}"`);
  if (!read(env, SETTINGS.JWT_JWKS_URL))
    throw new ConfigError("CONSOLE_OIDC_CLIENT_ID needs JWT_JWKS_URL, the identity provider's keys the API verifies its tokens with");
  return {
    issuer,
    clientId,
    scope: read(env, SETTINGS.CONSOLE_OIDC_SCOPE),
    resource: read(env, SETTINGS.CONSOLE_OIDC_RESOURCE) ?? null,
  };
}
