/**
 * OpenID Connect sign-in (authorization code with PKCE) through oidc-client-ts, loaded only when
 * the service names an identity provider. The user and its tokens are kept in an
 * InMemoryWebStorage: nothing of them is written to localStorage or sessionStorage. Only the
 * transient state of one sign-in — the PKCE verifier, the nonce and the address to come back to —
 * crosses the redirect in sessionStorage, and oidc-client-ts removes it when the sign-in completes.
 */
import { InMemoryWebStorage, UserManager, WebStorageStateStore } from 'oidc-client-ts';
import { CALLBACK_PATH } from './oidcPaths.js';
import { BASE } from './router.js';

export interface OidcSettings {
  issuer: string;
  clientId: string;
  scope: string;
  resource: string | null;
}

let manager: UserManager | null = null;

function userManager(settings: OidcSettings): UserManager {
  manager ??= new UserManager({
    authority: settings.issuer,
    client_id: settings.clientId,
    redirect_uri: window.location.origin + BASE + CALLBACK_PATH,
    response_type: 'code',
    scope: settings.scope,
    ...(settings.resource && { resource: settings.resource }),
    userStore: new WebStorageStateStore({ store: new InMemoryWebStorage() }),
    stateStore: new WebStorageStateStore({ store: window.sessionStorage }),
    // No hidden iframes or refresh: when the access token expires, the console asks to sign in again.
    automaticSilentRenew: false,
    monitorSession: false,
    loadUserInfo: false,
  });
  return manager;
}

/** Sends the browser to the provider; `path` (below /console) is opened again once signed in. */
export async function startSignIn(settings: OidcSettings, path: string): Promise<void> {
  await userManager(settings).signinRedirect({ state: { path } });
}

/** Completes the sign-in on the callback address: the access token and the address to go back to. */
export async function finishSignIn(settings: OidcSettings): Promise<{ token: string; path: string }> {
  const user = await userManager(settings).signinRedirectCallback();
  const path = (user.state as { path?: unknown } | undefined)?.path;
  return { token: user.access_token, path: typeof path === 'string' && path.startsWith('/') ? path : '/' };
}
