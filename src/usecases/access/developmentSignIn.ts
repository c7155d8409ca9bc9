import { type SignInUser, findUser, listSignInUsers } from '../../store/reference/referenceData.js';
import type { UseCaseDeps } from '../deps.js';

export type { SignInUser };

/** The users the console's development sign-in offers: every user of the world. */
export function signInUsers(deps: Pick<UseCaseDeps, 'db'>): Promise<SignInUser[]> {
  return listSignInUsers(deps.db);
}

/** Whether a token may be signed for this user: one the service would accept, so only an existing user. */
export async function canSignIn(deps: Pick<UseCaseDeps, 'db'>, userId: string): Promise<boolean> {
  return (await findUser(deps.db, userId)) !== null;
}
