/**
 * Signing in. Through the identity provider (OpenID Connect, authorization code with PKCE) when
 * the service names one: oidc-client-ts is loaded only then. Development sign-in: the world's
 * users, each a button that asks the service for the same token `npm run token` prints; the
 * service offers it only with the development secret on the embedded database.
 */
import { PayrollApiError } from 'payroll-fee-service';
import { useEffect, useState } from 'preact/hooks';
import type { OidcSettings } from '../oidc.js';
import { currentPath } from '../router.js';
import { type SignedIn, signIn } from '../session.js';
import { ErrorBox, Page, useAction, useLoad } from '../ui.js';
import { CONSOLE_PATHS } from '../../../src/config/consolePaths.js';

interface DevUser {
  id: string;
  role: 'customer' | 'admin';
  name: string;
  email: string;
  permissions: string[];
  companyLegalName: string | null;
}

interface ConsoleSettings {
  developmentSignIn: boolean;
  oidc: OidcSettings | null;
}

async function json<T>(response: Response): Promise<T> {
  const body = (await response.json()) as { success: boolean; data?: T; error?: { code: 'NOT_FOUND'; message: string } };
  if (!body.success || body.data === undefined) {
    throw new PayrollApiError(response.status, body.error?.code ?? 'UNEXPECTED_RESPONSE', body.error?.message ?? 'Unexpected answer');
  }
  return body.data;
}

let settings: Promise<ConsoleSettings> | null = null;
/** The service's sign-in settings, read once per page load. */
function consoleSettings(): Promise<ConsoleSettings> {
  settings ??= fetch(CONSOLE_PATHS.base + CONSOLE_PATHS.config).then((response) => json<ConsoleSettings>(response));
  settings.catch(() => (settings = null));
  return settings;
}

async function loadSignIn(): Promise<{ oidc: OidcSettings | null; users: DevUser[] | null }> {
  const config = await consoleSettings();
  const users = config.developmentSignIn ? (await json<{ users: DevUser[] }>(await fetch(CONSOLE_PATHS.base + CONSOLE_PATHS.developmentUsers))).users : null;
  return { oidc: config.oidc, users };
}

/** Who the token names (name, role, permissions, company), asked of the service with the token itself. */
async function whoIs(token: string): Promise<SignedIn> {
  const user = await json<Omit<SignedIn, 'token'>>(await fetch(CONSOLE_PATHS.base + CONSOLE_PATHS.session, { headers: { Authorization: `Bearer ${token}` } }));
  return { ...user, token };
}

export function SignInPage() {
  const loaded = useLoad(loadSignIn, []);
  const development = useAction(async (user: DevUser) => {
    const response = await fetch(CONSOLE_PATHS.base + CONSOLE_PATHS.developmentToken, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ userId: user.id }),
    });
    const { token } = await json<{ token: string }>(response);
    signIn({ userId: user.id, name: user.name, role: user.role, permissions: user.permissions, company: user.companyLegalName, token });
  });
  const provider = useAction(async (oidc: OidcSettings) => {
    const { startSignIn } = await import('../oidc.js');
    await startSignIn(oidc, currentPath());
  });
  const { oidc = null, users = null } = loaded.data ?? {};
  return (
    <Page title="Sign in">
      <ErrorBox error={loaded.error ?? development.error ?? provider.error} />
      {oidc && (
        <p>
          <button type="button" disabled={provider.busy} onClick={() => void provider.run(oidc)}>
            Sign in with your identity provider
          </button>{' '}
          <span class="muted">{new URL(oidc.issuer).host}; the token stays in this page's memory, reloading asks again.</span>
        </p>
      )}
      {loaded.data && !oidc && !users && (
        <p>
          Development sign-in is off here (an identity provider or a real secret is configured) and no OpenID Connect client is set (CONSOLE_OIDC_CLIENT_ID);
          see docs/console.md.
        </p>
      )}
      {users && (
        <>
          <p>Development sign-in: choose a user of the world. The token stays in this page's memory; reloading asks again.</p>
          <ul class="users">
            {users.map((user) => (
              <li key={user.id}>
                <button type="button" disabled={development.busy} onClick={() => void development.run(user)}>
                  Sign in as {user.name}
                </button>{' '}
                <span>
                  {user.role}
                  {user.permissions.length > 0 ? ` (${user.permissions.join(', ')})` : ''}
                  {user.companyLegalName ? `, ${user.companyLegalName}` : ''} — {user.email}
                </span>
              </li>
            ))}
          </ul>
        </>
      )}
    </Page>
  );
}

/** The provider's redirect back: the code exchanged for the token (PKCE), then the page the sign-in started from. */
export function OidcCallbackPage({ done }: { done: (path: string) => void }) {
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    void (async () => {
      const config = await consoleSettings();
      if (!config.oidc) throw new Error('OpenID Connect sign-in is not configured here (CONSOLE_OIDC_CLIENT_ID)');
      const { finishSignIn } = await import('../oidc.js');
      const { token, path } = await finishSignIn(config.oidc);
      const user = await whoIs(token);
      // The address the sign-in started from replaces the callback's, and the page opens signed in.
      done(path);
      signIn(user);
    })().catch(setError);
  }, []);
  return <Page title="Signing in">{error ? <ErrorBox error={error} /> : <p role="status">Completing the sign-in with your identity provider…</p>}</Page>;
}
