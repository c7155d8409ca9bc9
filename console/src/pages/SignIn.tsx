/**
 * Development sign-in: the world's users, each a button that asks the service for the same token
 * `npm run token` prints. The service offers it only with the development secret on the embedded
 * database; elsewhere this page says so.
 */
import { PayrollApiError } from 'payroll-fee-service';
import { type SignedIn, signIn } from '../session.js';
import { ErrorBox, Page, useAction, useLoad } from '../ui.js';

interface DevUser {
  id: string;
  role: 'customer' | 'admin';
  name: string;
  email: string;
  permissions: string[];
  companyLegalName: string | null;
}

async function json<T>(response: Response): Promise<T> {
  const body = (await response.json()) as { success: boolean; data?: T; error?: { code: 'NOT_FOUND'; message: string } };
  if (!body.success || body.data === undefined) {
    throw new PayrollApiError(response.status, body.error?.code ?? 'UNEXPECTED_RESPONSE', body.error?.message ?? 'Unexpected answer');
  }
  return body.data;
}

async function loadUsers(): Promise<DevUser[] | null> {
  const config = await json<{ developmentSignIn: boolean }>(await fetch('/console/dev/config'));
  if (!config.developmentSignIn) return null;
  return (await json<{ users: DevUser[] }>(await fetch('/console/dev/users'))).users;
}

export function SignInPage() {
  const users = useLoad(loadUsers, []);
  const action = useAction(async (user: DevUser) => {
    const response = await fetch('/console/dev/token', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ userId: user.id }),
    });
    const { token } = await json<{ token: string }>(response);
    const signedIn: SignedIn = { userId: user.id, name: user.name, role: user.role, permissions: user.permissions, company: user.companyLegalName, token };
    signIn(signedIn);
  });
  return (
    <Page title="Sign in">
      <ErrorBox error={users.error ?? action.error} />
      {users.data === null && (
        <p>
          Development sign-in is off here (an identity provider or a real secret is configured). Sign in through your identity provider; see docs/console.md.
        </p>
      )}
      {users.data && (
        <>
          <p>Development sign-in: choose a user of the world. The token stays in this page's memory; reloading asks again.</p>
          <ul class="users">
            {users.data.map((user) => (
              <li key={user.id}>
                <button type="button" disabled={action.busy} onClick={() => void action.run(user)}>
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
