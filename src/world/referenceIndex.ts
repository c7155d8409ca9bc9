/**
 * The second check of a world file, part one: ids are unique and the reference data refers
 * only to what the file defines. Builds the lookups the later checks resolve references with.
 */
import type { World } from './types.js';
import { fail, uniqueIndex, type PathSegment } from './validationError.js';

export interface AccountCurrencyInfo {
  accountIndex: number;
  currencyIndex: number;
  customerId: string | null;
  currency: string;
}

/** id (or currency code) → position in the file. */
export interface WorldIndex {
  world: World;
  currencyCodes: ReadonlyMap<string, number>;
  customers: ReadonlyMap<string, number>;
  users: ReadonlyMap<string, number>;
  accountCurrencies: ReadonlyMap<string, AccountCurrencyInfo>;
  beneficiaries: ReadonlyMap<string, number>;
}

export function requireCurrency(index: Pick<WorldIndex, 'currencyCodes'>, code: string, segments: PathSegment[]): void {
  if (!index.currencyCodes.has(code)) fail(segments, `unknown currency ${code} (not listed in world.currencies)`);
}

export function requireCustomer(index: Pick<WorldIndex, 'customers'>, id: string, segments: PathSegment[]): void {
  if (!index.customers.has(id)) fail(segments, `unknown customer ${id} (not listed in world.customers)`);
}

export function requireAdmin(index: WorldIndex, id: string, segments: PathSegment[]): void {
  const position = index.users.get(id);
  if (position === undefined) fail(segments, `unknown user ${id} (not listed in world.users)`);
  if (index.world.users[position]?.role !== 'admin') fail(segments, `user ${id} is not an admin`);
}

export function indexReferenceData(world: World): WorldIndex {
  const currencyCodes = indexCurrencies(world);
  const customers = uniqueIndex(
    world.customers,
    (c) => c.id,
    (i) => ['customers', i, 'id'],
    'customer id',
  );
  const users = indexUsers(world, { customers });
  const accountCurrencies = indexAccountCurrencies(world, { currencyCodes, customers });
  const beneficiaries = uniqueIndex(
    world.beneficiaries,
    (b) => b.id,
    (i) => ['beneficiaries', i, 'id'],
    'beneficiary id',
  );
  world.beneficiaries.forEach((b, i) => requireCustomer({ customers }, b.customerId, ['beneficiaries', i, 'customerId']));
  return { world, currencyCodes, customers, users, accountCurrencies, beneficiaries };
}

/** Unique codes, and unique ids where given (an id is optional). */
function indexCurrencies(world: World): Map<string, number> {
  const codes = uniqueIndex(
    world.currencies,
    (c) => c.code,
    (i) => ['currencies', i, 'code'],
    'currency code',
  );
  const withIds = world.currencies.flatMap((c, i) => (c.id ? [{ id: c.id, i }] : []));
  uniqueIndex(
    withIds,
    (c) => c.id,
    (k) => ['currencies', withIds[k]?.i ?? k, 'id'],
    'currency id',
  );
  return codes;
}

/** Role customer ⇔ customerId; permissions only for customer users. */
function indexUsers(world: World, index: Pick<WorldIndex, 'customers'>): Map<string, number> {
  const users = uniqueIndex(
    world.users,
    (u) => u.id,
    (i) => ['users', i, 'id'],
    'user id',
  );
  world.users.forEach((user, i) => {
    const customerId = user.customerId ?? null;
    if (user.role === 'customer') {
      if (customerId === null) fail(['users', i, 'customerId'], 'is required for a user with role customer');
      requireCustomer(index, customerId, ['users', i, 'customerId']);
    } else if (customerId !== null) {
      fail(['users', i, 'customerId'], 'must be absent or null for a user with role admin');
    } else if ((user.permissions ?? []).length > 0) {
      fail(['users', i, 'permissions'], 'are for users with role customer (approver approves their payroll requests)');
    }
  });
  return users;
}

function indexAccountCurrencies(world: World, index: Pick<WorldIndex, 'currencyCodes' | 'customers'>): Map<string, AccountCurrencyInfo> {
  uniqueIndex(
    world.accounts,
    (a) => a.id,
    (i) => ['accounts', i, 'id'],
    'account id',
  );
  const accountCurrencies = new Map<string, AccountCurrencyInfo>();
  const seenIds = new Map<string, PathSegment[]>();
  world.accounts.forEach((account, a) => {
    const at = (c: number, key: string): PathSegment[] => ['accounts', a, 'currencies', c, key];
    if (account.customerId !== null) requireCustomer(index, account.customerId, ['accounts', a, 'customerId']);
    uniqueIndex(
      account.currencies,
      (c) => c.currency,
      (c) => at(c, 'currency'),
      'currency in the account',
    );
    account.currencies.forEach((c, i) => requireCurrency(index, c.currency, at(i, 'currency')));
    uniqueIndex(
      account.currencies,
      (c) => c.id,
      (c) => at(c, 'id'),
      'account currency id',
      seenIds,
    );
    account.currencies.forEach((c, i) => {
      accountCurrencies.set(c.id, { accountIndex: a, currencyIndex: i, customerId: account.customerId, currency: c.currency });
    });
  });
  return accountCurrencies;
}
