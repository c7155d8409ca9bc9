/** The browser console's settings (docs/console.md). */
export interface ConsoleConfig {
  /** Its built files (CONSOLE_DIR, default dist/console: `npm run build:console`). */
  dir: string;
  /** Whether its development sign-in (a list of the world's users, each with a token) is offered. */
  developmentSignIn: boolean;
}

/**
 * The development sign-in mints tokens with the committed secret: it is offered only where that
 * secret already lets anyone mint them (no identity provider, not production) and on the embedded
 * database, never against a real one (DATABASE_URL).
 */
export function consoleConfig(env: NodeJS.ProcessEnv, nodeEnv: string, developmentSecret: string): ConsoleConfig {
  const secretIsDevelopment = !env.JWT_JWKS_URL && (env.JWT_SECRET || developmentSecret) === developmentSecret;
  return { dir: env.CONSOLE_DIR || 'dist/console', developmentSignIn: secretIsDevelopment && nodeEnv !== 'production' && !env.DATABASE_URL };
}
