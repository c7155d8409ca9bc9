import { type SignInUser, findSignInUser } from '../../store/reference/referenceData.js';
import type { UseCaseDeps } from '../deps.js';
import type { Principal } from './principal.js';

/**
 * Who a verified token names, as the console shows them (name, role, permissions, company): after
 * an OpenID Connect sign-in the console holds only an access token, and the API's own roles come
 * from the database, not from the token's claims.
 */
export function signedInUser(deps: Pick<UseCaseDeps, 'db'>, caller: Principal): Promise<SignInUser | null> {
  return findSignInUser(deps.db, caller.userId);
}
