/** The console: sign-in, the navigation of each role, and the page of the address. */
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { type SignedIn, onSessionChange, session, signOut } from './session.js';
import { navigate, usePath } from './router.js';
import { Link, setUtc, useUtc } from './ui.js';
import { AccountsPage } from './pages/Accounts.js';
import { CustomerSettingsPage, RatesPage } from './pages/Admin.js';
import { BankExceptionPage, BankPage } from './pages/Bank.js';
import { BeneficiariesPage, BeneficiaryPage } from './pages/Beneficiaries.js';
import { PayrollPage } from './pages/Payroll.js';
import { RequestPage } from './pages/Request.js';
import { RequestsPage } from './pages/Requests.js';
import { ScreeningPage } from './pages/Screening.js';
import { OidcCallbackPage, SignInPage } from './pages/SignIn.js';
import { CALLBACK_PATH } from './oidcPaths.js';
import { StatementPage } from './pages/Statement.js';
import { TemplatesPage } from './pages/Templates.js';
import './style.css';

const CUSTOMER_NAV = [
  ['/', 'Accounts'],
  ['/beneficiaries', 'Beneficiaries'],
  ['/payroll/new', 'New payroll'],
  ['/requests', 'Payroll requests'],
  ['/calendar', 'Pay calendar'],
] as const;
const ADMIN_NAV = [
  ['/', 'Queue'],
  ['/customers', 'Customer settings'],
  ['/rates', 'Rates'],
  ['/bank', 'Bank'],
  ['/screening', 'Screening'],
] as const;

function route(path: string, user: SignedIn) {
  const [pathname = '/'] = path.split('?');
  const parts = pathname.split('/').filter(Boolean);
  const [first, second] = parts;
  if (first === 'requests' && second) return <RequestPage requestId={second} />;
  if (first === 'requests') return <RequestsPage />;
  if (user.role === 'admin') {
    if (first === 'customers') return <CustomerSettingsPage customerId={second} />;
    if (first === 'rates') return <RatesPage />;
    if (first === 'bank' && second === 'exceptions' && parts[2]) return <BankExceptionPage exceptionId={parts[2]} />;
    if (first === 'bank') return <BankPage />;
    if (first === 'screening') return <ScreeningPage />;
    return <RequestsPage />;
  }
  if (first === 'beneficiaries' && second) return <BeneficiaryPage beneficiaryId={second} />;
  if (first === 'beneficiaries') return <BeneficiariesPage />;
  if (first === 'payroll') return <PayrollPage />;
  if (first === 'calendar') return <TemplatesPage />;
  if (first === 'statements' && second) return <StatementPage accountCurrencyId={second} />;
  return <AccountsPage />;
}

/** Signed out: the identity provider's redirect back completes a sign-in; any other address asks to sign in and keeps the address. */
function signInPage(path: string) {
  if (path.split('?')[0] === CALLBACK_PATH) return <OidcCallbackPage done={(to) => navigate(to, true)} />;
  return <SignInPage />;
}

function App() {
  const [user, setUser] = useState(session());
  const path = usePath();
  const utc = useUtc();
  useEffect(() => onSessionChange(() => setUser(session())), []);
  return (
    <>
      <header>
        <a class="skip" href="#main">
          Skip to the page
        </a>
        <strong>Payroll console</strong>
        {user && (
          <nav aria-label="Main">
            <ul>
              {(user.role === 'admin' ? ADMIN_NAV : CUSTOMER_NAV).map(([to, label]) => (
                <li key={to}>
                  <Link to={to}>{label}</Link>
                </li>
              ))}
            </ul>
          </nav>
        )}
        <label class="check">
          <input type="checkbox" checked={utc} onChange={(event) => setUtc(event.currentTarget.checked)} /> Times in UTC
        </label>
        {user && (
          <span>
            {user.name} ({user.role}
            {user.company ? `, ${user.company}` : ''}){' '}
            <button type="button" onClick={signOut}>
              Sign out
            </button>
          </span>
        )}
      </header>
      <main id="main">{user ? route(path, user) : signInPage(path)}</main>
    </>
  );
}

render(<App />, document.getElementById('app')!);
