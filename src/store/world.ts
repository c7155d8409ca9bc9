/**
 * The world loader: reference data (currencies, customers, users, accounts, beneficiaries,
 * rates, fee schedules) and optional demo payroll requests, read from a JSON file that
 * src/store/world.schema.json describes. Validation is complete before anything is written;
 * the load itself is one transaction.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import Ajv2020Module from 'ajv/dist/2020.js';
import type { ErrorObject } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { Decimal } from 'decimal.js';
import type { Database, Queryable } from './db.js';
import type { PayrollRequestStatus } from '../domain/payrollStatus.js';

// ---------------------------------------------------------------------------------------
// The World type (hand-written; keep in step with world.schema.json)
// ---------------------------------------------------------------------------------------

/** A non-negative decimal number as a string, e.g. "1500.00". */
export type DecimalString = string;
/** An RFC 3339 timestamp, e.g. "2026-11-23T10:15:00Z". */
export type Timestamp = string;

export interface WorldCurrency {
  /** Generated when absent; give fixed ids in shared worlds. */
  id?: string;
  code: string;
  name: string;
  symbol: string;
  decimals: number;
}

export interface WorldCustomer {
  id: string;
  firstName: string;
  lastName: string;
  companyLegalName: string;
  /** Absent: no fee profile (spread 0). */
  spreadBips?: number;
}

export interface WorldUser {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  role: 'customer' | 'admin';
  /** Required for role customer; absent or null for admin. */
  customerId?: string | null;
}

export interface WorldAccountCurrency {
  id: string;
  /** Currency code. */
  currency: string;
  /** Opening balance, before the world's payroll requests. */
  balance: DecimalString;
}

export interface WorldAccount {
  id: string;
  accountProvider: string;
  /** null: a platform partner-bank account every customer may use as payroll account. */
  customerId: string | null;
  currencies: WorldAccountCurrency[];
}

export type BeneficiaryType = 'INDIVIDUAL' | 'BUSINESS';

export interface WorldBeneficiary {
  id: string;
  customerId: string;
  firstName: string;
  lastName: string;
  displayName: string;
  type: BeneficiaryType;
  nationality: string;
  bankName: string;
  iban?: string;
  accountNumber?: string;
  reference?: string;
  /** Default true. */
  active?: boolean;
}

export interface WorldRate {
  from: string;
  to: string;
  /** How many `to` units one `from` unit buys. */
  rate: DecimalString;
}

export interface WorldFeeSchedule {
  accountProvider: string;
  currency: string;
  percentBps: number;
  fixed: DecimalString;
  min: DecimalString;
  max: DecimalString;
}

export interface WorldPayoutFeeSchedule extends WorldFeeSchedule {
  settlementDays: number;
}

export interface WorldInternalPayoutFee {
  /** Absent or null: the platform default. */
  customerId?: string | null;
  currency: string;
  percentBps: number;
  fixed: DecimalString;
}

export interface WorldFees {
  bankFeePerBeneficiary: Record<string, DecimalString>;
  processor: WorldFeeSchedule[];
  payout: WorldPayoutFeeSchedule[];
  internalPayout?: WorldInternalPayoutFee[];
}


export type TransferType = 'PROCESSOR_INTERNAL_DEBIT' | 'PROCESSOR_TO_BANK' | 'BANK_TO_BENEFICIARY';
export type TransferStatus = 'PENDING' | 'INITIATED' | 'PROCESSING' | 'COMPLETED' | 'FAILED';
export type PurposeCode = 'SAL' | 'FCISS' | 'PEN' | 'OFS';

export interface WorldFeeDetails {
  id: string;
  amount: DecimalString;
  finalInternalFee: DecimalString;
}

export interface WorldFeeBreakdown {
  sourceCurrencyAmount: DecimalString;
  spreadFee: DecimalString;
  processorFee: DecimalString;
  bankFee: DecimalString;
  totalFee: DecimalString;
  estimatedReceivedAmount: DecimalString;
  payrollCurrencyCode: string;
  feeCurrencyCode: string;
  exchangeRate: DecimalString;
  baseRate: DecimalString;
}

export interface WorldAmountSplit {
  id: string;
  beneficiaryId: string;
  sourceCurrencyAmount: DecimalString;
  amount: DecimalString;
  purposeCode: PurposeCode;
  payoutTransferId?: string;
}

export interface WorldTransfer {
  id: string;
  transferType: TransferType;
  status: TransferStatus;
  externalId?: string;
  amount: DecimalString;
  currencyCode: string;
  feeDetails?: WorldFeeDetails;
  /** BANK_TO_BENEFICIARY only: the split this payout pays. */
  amountSplitId?: string;
  executedAt?: Timestamp;
  completedAt?: Timestamp;
  failureReason?: string;
  createdAt: Timestamp;
}

export interface WorldFxExchange {
  id: string;
  fromCurrencyCode: string;
  toCurrencyCode: string;
  fromAmount: DecimalString;
  toAmount: DecimalString;
  exchangeRate: DecimalString;
  feeDetails: WorldFeeDetails;
  recordedByUserId: string;
  recordedAt: Timestamp;
  createdAt: Timestamp;
}

export interface WorldPayrollRequest {
  id: string;
  customerId: string;
  sourceAccountCurrencyId: string;
  payrollAccountCurrencyId: string;
  status: PayrollRequestStatus;
  totalAmount: DecimalString;
  estimatedFxRate: DecimalString;
  estimatedReceivedAmount: DecimalString;
  sourceAmountForExchange: DecimalString;
  quoteRate?: DecimalString;
  quoteExpiresAt?: Timestamp;
  quotedByUserId?: string;
  quotedAt?: Timestamp;
  acceptedByCustomerAt?: Timestamp;
  cancellationReason?: string | null;
  failureReason?: string | null;
  feeBreakdown: WorldFeeBreakdown;
  createdAt: Timestamp;
  updatedAt: Timestamp;
  amountSplitDetails: WorldAmountSplit[];
  transfers?: WorldTransfer[];
  fxExchange?: WorldFxExchange;
}

export interface World {
  $schema?: string;
  /** Free text for readers; ignored by the loader. */
  description?: string | string[];
  currencies: WorldCurrency[];
  customers: WorldCustomer[];
  users: WorldUser[];
  accounts: WorldAccount[];
  beneficiaries: WorldBeneficiary[];
  rates: WorldRate[];
  fees: WorldFees;
  payrollRequests?: WorldPayrollRequest[];
}

/** Requests in these statuses hold no funds: the loader writes no PAYROLL_DEBIT for them. */
export const UNDEBITED_STATUSES: ReadonlySet<PayrollRequestStatus> = new Set(['CANCELLED', 'FAILED']);

// ---------------------------------------------------------------------------------------
// Validation
// ---------------------------------------------------------------------------------------

/** A world file that breaks the schema or refers to something it does not define. */
export class WorldValidationError extends Error {
  /** The offending JSON path, e.g. `world.beneficiaries[3].nationality`. */
  readonly path: string;

  constructor(path: string, problem: string) {
    super(`${path}: ${problem}`);
    this.name = 'WorldValidationError';
    this.path = path;
  }
}

const schema = JSON.parse(
  readFileSync(new URL('./world.schema.json', import.meta.url), 'utf8'),
) as Record<string, unknown>;

// ajv and ajv-formats are CommonJS: under NodeNext the default import is module.exports.
const Ajv2020 = Ajv2020Module.default;
const addFormats = addFormatsModule.default;
const ajv = new Ajv2020({ allErrors: false, strict: true });
addFormats(ajv);
const validateSchema = ajv.compile(schema);

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** `/beneficiaries/3/nationality` → `world.beneficiaries[3].nationality`. */
function toPath(segments: readonly (string | number)[]): string {
  let path = 'world';
  for (const segment of segments) {
    if (typeof segment === 'number' || /^(0|[1-9][0-9]*)$/.test(segment)) path += `[${segment}]`;
    else if (IDENTIFIER.test(segment)) path += `.${segment}`;
    else path += `[${JSON.stringify(segment)}]`;
  }
  return path;
}

function schemaErrorToException(error: ErrorObject): WorldValidationError {
  const segments: (string | number)[] = error.instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
  const params = error.params as Record<string, unknown>;
  // Name the missing or unexpected property itself, not its parent.
  if (error.keyword === 'required' && typeof params.missingProperty === 'string') {
    segments.push(params.missingProperty);
  } else if (error.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') {
    segments.push(params.additionalProperty);
  } else if (error.keyword === 'propertyNames' && typeof params.propertyName === 'string') {
    segments.push(params.propertyName);
  }
  return new WorldValidationError(toPath(segments), error.message ?? `fails schema keyword ${error.keyword}`);
}

type PathSegment = string | number;

/**
 * Checks a world file: the JSON schema first, then every reference between entries.
 * Returns the input typed as World (unchanged) or throws the first WorldValidationError.
 */
export function validateWorld(input: unknown): World {
  if (!validateSchema(input)) {
    const first = validateSchema.errors?.[0];
    throw first ? schemaErrorToException(first) : new WorldValidationError('world', 'is not a valid world');
  }
  const world = input as unknown as World;
  checkReferences(world);
  return world;
}

function fail(segments: readonly PathSegment[], problem: string): never {
  throw new WorldValidationError(toPath(segments), problem);
}

/** Map of id → index; throws on the second occurrence of an id. */
function uniqueIndex<T>(
  items: readonly T[],
  keyOf: (item: T) => string,
  pathOf: (index: number) => PathSegment[],
  what: string,
  seen = new Map<string, PathSegment[]>(),
): Map<string, number> {
  const index = new Map<string, number>();
  items.forEach((item, i) => {
    const key = keyOf(item);
    const earlier = seen.get(key);
    if (earlier) fail(pathOf(i), `duplicate ${what} ${key} (already used at ${toPath(earlier)})`);
    seen.set(key, pathOf(i));
    index.set(key, i);
  });
  return index;
}

interface AccountCurrencyInfo {
  accountIndex: number;
  currencyIndex: number;
  customerId: string | null;
  accountProvider: string;
  currency: string;
}

function checkReferences(world: World): void {
  // Currencies: unique ids and codes.
  const currencyCodes = uniqueIndex(world.currencies, (c) => c.code, (i) => ['currencies', i, 'code'], 'currency code');
  const withIds = world.currencies.flatMap((c, i) => (c.id ? [{ id: c.id, i }] : []));
  const seenCurrencyIds = new Map<string, PathSegment[]>();
  for (const { id, i } of withIds) {
    const earlier = seenCurrencyIds.get(id);
    if (earlier) fail(['currencies', i, 'id'], `duplicate currency id ${id} (already used at ${toPath(earlier)})`);
    seenCurrencyIds.set(id, ['currencies', i, 'id']);
  }
  const requireCurrency = (code: string, segments: PathSegment[]): void => {
    if (!currencyCodes.has(code)) fail(segments, `unknown currency ${code} (not listed in world.currencies)`);
  };

  // Customers.
  const customers = uniqueIndex(world.customers, (c) => c.id, (i) => ['customers', i, 'id'], 'customer id');
  const requireCustomer = (id: string, segments: PathSegment[]): void => {
    if (!customers.has(id)) fail(segments, `unknown customer ${id} (not listed in world.customers)`);
  };

  // Users: role customer ⇔ customerId.
  const users = uniqueIndex(world.users, (u) => u.id, (i) => ['users', i, 'id'], 'user id');
  world.users.forEach((user, i) => {
    const customerId = user.customerId ?? null;
    if (user.role === 'customer') {
      if (customerId === null) fail(['users', i, 'customerId'], 'is required for a user with role customer');
      requireCustomer(customerId, ['users', i, 'customerId']);
    } else if (customerId !== null) {
      fail(['users', i, 'customerId'], 'must be absent or null for a user with role admin');
    }
  });
  const requireAdmin = (id: string, segments: PathSegment[]): void => {
    const index = users.get(id);
    if (index === undefined) fail(segments, `unknown user ${id} (not listed in world.users)`);
    if (world.users[index]?.role !== 'admin') fail(segments, `user ${id} is not an admin`);
  };

  // Accounts and their currencies.
  uniqueIndex(world.accounts, (a) => a.id, (i) => ['accounts', i, 'id'], 'account id');
  const accountCurrencies = new Map<string, AccountCurrencyInfo>();
  const seenAccountCurrencyIds = new Map<string, PathSegment[]>();
  world.accounts.forEach((account, a) => {
    if (account.customerId !== null) requireCustomer(account.customerId, ['accounts', a, 'customerId']);
    uniqueIndex(
      account.currencies,
      (c) => c.currency,
      (c) => ['accounts', a, 'currencies', c, 'currency'],
      'currency in the account',
    );
    account.currencies.forEach((accountCurrency, c) => {
      requireCurrency(accountCurrency.currency, ['accounts', a, 'currencies', c, 'currency']);
      const segments = ['accounts', a, 'currencies', c, 'id'];
      const earlier = seenAccountCurrencyIds.get(accountCurrency.id);
      if (earlier) fail(segments, `duplicate account currency id ${accountCurrency.id} (already used at ${toPath(earlier)})`);
      seenAccountCurrencyIds.set(accountCurrency.id, segments);
      accountCurrencies.set(accountCurrency.id, {
        accountIndex: a,
        currencyIndex: c,
        customerId: account.customerId,
        accountProvider: account.accountProvider,
        currency: accountCurrency.currency,
      });
    });
  });

  // Beneficiaries.
  const beneficiaries = uniqueIndex(world.beneficiaries, (b) => b.id, (i) => ['beneficiaries', i, 'id'], 'beneficiary id');
  world.beneficiaries.forEach((beneficiary, i) => requireCustomer(beneficiary.customerId, ['beneficiaries', i, 'customerId']));

  // Rates.
  uniqueIndex(world.rates, (r) => `${r.from}->${r.to}`, (i) => ['rates', i], 'rate');
  world.rates.forEach((rate, i) => {
    requireCurrency(rate.from, ['rates', i, 'from']);
    requireCurrency(rate.to, ['rates', i, 'to']);
    if (rate.from === rate.to) fail(['rates', i, 'to'], 'must differ from from');
    if (new Decimal(rate.rate).isZero()) fail(['rates', i, 'rate'], 'must be greater than zero');
  });

  // Fees.
  for (const code of Object.keys(world.fees.bankFeePerBeneficiary)) {
    requireCurrency(code, ['fees', 'bankFeePerBeneficiary', code]);
  }
  const checkSchedules = (list: readonly WorldFeeSchedule[], key: 'processor' | 'payout'): void => {
    uniqueIndex(list, (s) => `${s.accountProvider}/${s.currency}`, (i) => ['fees', key, i], `${key} schedule for`);
    list.forEach((schedule, i) => {
      requireCurrency(schedule.currency, ['fees', key, i, 'currency']);
      if (new Decimal(schedule.min).greaterThan(schedule.max)) fail(['fees', key, i, 'max'], 'must not be less than min');
    });
  };
  checkSchedules(world.fees.processor, 'processor');
  checkSchedules(world.fees.payout, 'payout');
  const internal = world.fees.internalPayout ?? [];
  uniqueIndex(
    internal,
    (r) => `${r.customerId ?? 'platform default'}/${r.currency}`,
    (i) => ['fees', 'internalPayout', i],
    'internal payout rule for',
  );
  internal.forEach((rule, i) => {
    if (rule.customerId != null) requireCustomer(rule.customerId, ['fees', 'internalPayout', i, 'customerId']);
    requireCurrency(rule.currency, ['fees', 'internalPayout', i, 'currency']);
  });

  checkPayrollRequests(world, { requireCurrency, requireCustomer, requireAdmin, accountCurrencies, beneficiaries });
}

interface RequestContext {
  requireCurrency(code: string, segments: PathSegment[]): void;
  requireCustomer(id: string, segments: PathSegment[]): void;
  requireAdmin(id: string, segments: PathSegment[]): void;
  accountCurrencies: Map<string, AccountCurrencyInfo>;
  beneficiaries: Map<string, number>;
}

function checkPayrollRequests(world: World, context: RequestContext): void {
  const requests = world.payrollRequests ?? [];
  uniqueIndex(requests, (r) => r.id, (i) => ['payrollRequests', i, 'id'], 'payroll request id');
  // Split, transfer, FX and fee-detail ids are unique across the whole file.
  const seenSplitIds = new Map<string, PathSegment[]>();
  const seenTransferIds = new Map<string, PathSegment[]>();
  const seenFxIds = new Map<string, PathSegment[]>();
  const debits = new Map<string, Decimal>();

  requests.forEach((request, r) => {
    const at = (...rest: PathSegment[]): PathSegment[] => ['payrollRequests', r, ...rest];
    context.requireCustomer(request.customerId, at('customerId'));

    const source = context.accountCurrencies.get(request.sourceAccountCurrencyId);
    if (!source) fail(at('sourceAccountCurrencyId'), `unknown account currency ${request.sourceAccountCurrencyId}`);
    if (source.customerId !== request.customerId) {
      fail(at('sourceAccountCurrencyId'), `account currency ${request.sourceAccountCurrencyId} does not belong to customer ${request.customerId}`);
    }
    const payroll = context.accountCurrencies.get(request.payrollAccountCurrencyId);
    if (!payroll) fail(at('payrollAccountCurrencyId'), `unknown account currency ${request.payrollAccountCurrencyId}`);
    if (payroll.customerId !== null && payroll.customerId !== request.customerId) {
      fail(at('payrollAccountCurrencyId'), `account currency ${request.payrollAccountCurrencyId} is neither a partner-bank account nor the customer's own`);
    }
    const breakdown = request.feeBreakdown;
    context.requireCurrency(breakdown.payrollCurrencyCode, at('feeBreakdown', 'payrollCurrencyCode'));
    context.requireCurrency(breakdown.feeCurrencyCode, at('feeBreakdown', 'feeCurrencyCode'));
    if (breakdown.payrollCurrencyCode !== payroll.currency) {
      fail(at('feeBreakdown', 'payrollCurrencyCode'), `must be ${payroll.currency}, the currency of the payroll account currency`);
    }
    if (breakdown.feeCurrencyCode !== source.currency) {
      fail(at('feeBreakdown', 'feeCurrencyCode'), `must be ${source.currency}, the currency of the source account currency`);
    }
    if (request.quotedByUserId !== undefined) context.requireAdmin(request.quotedByUserId, at('quotedByUserId'));

    // Amount splits.
    const splits = uniqueIndex(
      request.amountSplitDetails,
      (s) => s.id,
      (s) => at('amountSplitDetails', s, 'id'),
      'amount split id',
      seenSplitIds,
    );
    uniqueIndex(
      request.amountSplitDetails,
      (s) => s.beneficiaryId,
      (s) => at('amountSplitDetails', s, 'beneficiaryId'),
      'beneficiary in the request',
    );
    request.amountSplitDetails.forEach((split, s) => {
      const b = context.beneficiaries.get(split.beneficiaryId);
      if (b === undefined) fail(at('amountSplitDetails', s, 'beneficiaryId'), `unknown beneficiary ${split.beneficiaryId}`);
      if (world.beneficiaries[b]?.customerId !== request.customerId) {
        fail(at('amountSplitDetails', s, 'beneficiaryId'), `beneficiary ${split.beneficiaryId} does not belong to customer ${request.customerId}`);
      }
    });

    // Transfers and the links between payouts and splits.
    const transfers = request.transfers ?? [];
    const transferIndex = uniqueIndex(
      transfers,
      (t) => t.id,
      (t) => at('transfers', t, 'id'),
      'transfer id',
      seenTransferIds,
    );
    const splitOfTransfer = new Map<string, string>();
    transfers.forEach((transfer, t) => {
      context.requireCurrency(transfer.currencyCode, at('transfers', t, 'currencyCode'));
      if (transfer.amountSplitId !== undefined) {
        if (transfer.transferType !== 'BANK_TO_BENEFICIARY') {
          fail(at('transfers', t, 'amountSplitId'), 'is only allowed on a BANK_TO_BENEFICIARY transfer');
        }
        if (!splits.has(transfer.amountSplitId)) {
          fail(at('transfers', t, 'amountSplitId'), `unknown amount split ${transfer.amountSplitId} (not in this request)`);
        }
        const other = [...splitOfTransfer.entries()].find(([, splitId]) => splitId === transfer.amountSplitId);
        if (other) fail(at('transfers', t, 'amountSplitId'), `amount split ${transfer.amountSplitId} already has payout transfer ${other[0]}`);
        splitOfTransfer.set(transfer.id, transfer.amountSplitId);
      }
      if (transfer.status === 'FAILED' && transfer.failureReason === undefined) {
        fail(at('transfers', t, 'failureReason'), 'is required when status is FAILED');
      }
    });
    const seenPayoutTransfers = new Map<string, number>();
    request.amountSplitDetails.forEach((split, s) => {
      if (split.payoutTransferId === undefined) return;
      const segments = at('amountSplitDetails', s, 'payoutTransferId');
      const t = transferIndex.get(split.payoutTransferId);
      if (t === undefined) fail(segments, `unknown transfer ${split.payoutTransferId} (not in this request)`);
      if (transfers[t]?.transferType !== 'BANK_TO_BENEFICIARY') fail(segments, `transfer ${split.payoutTransferId} is not a BANK_TO_BENEFICIARY transfer`);
      const linked = splitOfTransfer.get(split.payoutTransferId);
      if (linked !== undefined && linked !== split.id) {
        fail(segments, `transfer ${split.payoutTransferId} pays amount split ${linked}, not this one`);
      }
      const earlier = seenPayoutTransfers.get(split.payoutTransferId);
      if (earlier !== undefined) fail(segments, `transfer ${split.payoutTransferId} is already the payout of amountSplitDetails[${earlier}]`);
      seenPayoutTransfers.set(split.payoutTransferId, s);
    });
    // A split pointing at a transfer whose own amountSplitId names another split was caught
    // above; a transfer naming a split that points elsewhere is caught here.
    for (const [transferId, splitId] of splitOfTransfer) {
      const split = request.amountSplitDetails[splits.get(splitId) ?? -1];
      if (split?.payoutTransferId !== undefined && split.payoutTransferId !== transferId) {
        fail(at('transfers', transferIndex.get(transferId) ?? -1, 'amountSplitId'), `amount split ${splitId} names payout transfer ${split.payoutTransferId}, not this one`);
      }
    }

    // FX exchange.
    const fx = request.fxExchange;
    if (fx) {
      const earlier = seenFxIds.get(fx.id);
      if (earlier) fail(at('fxExchange', 'id'), `duplicate fx exchange id ${fx.id} (already used at ${toPath(earlier)})`);
      seenFxIds.set(fx.id, at('fxExchange', 'id'));
      context.requireCurrency(fx.fromCurrencyCode, at('fxExchange', 'fromCurrencyCode'));
      context.requireCurrency(fx.toCurrencyCode, at('fxExchange', 'toCurrencyCode'));
      context.requireAdmin(fx.recordedByUserId, at('fxExchange', 'recordedByUserId'));
    }

    // The debit this request holds on its source account currency.
    if (!UNDEBITED_STATUSES.has(request.status)) {
      const previous = debits.get(request.sourceAccountCurrencyId) ?? new Decimal(0);
      const total = previous.plus(request.totalAmount);
      const opening = world.accounts[source.accountIndex]?.currencies[source.currencyIndex]?.balance ?? '0';
      if (total.greaterThan(opening)) {
        fail(at('totalAmount'), `debits of account currency ${request.sourceAccountCurrencyId} (${total.toFixed()}) exceed its balance ${opening}`);
      }
      debits.set(request.sourceAccountCurrencyId, total);
    }
  });
}

// ---------------------------------------------------------------------------------------
// Loading
// ---------------------------------------------------------------------------------------

/** The exact value, with at least `minScale` decimals, never in exponent notation. */
function formatAmount(value: Decimal, minScale: number): string {
  return value.toFixed(Math.max(minScale, value.decimalPlaces()));
}

/** Rows per INSERT: keeps each statement's JSON parameter to a few megabytes. */
const BATCH_SIZE = 2000;

/**
 * INSERT ... SELECT FROM jsonb_to_recordset($1): one statement and one parameter per batch,
 * the same on PGlite and PostgreSQL, and no limit on the number of bind parameters.
 */
async function insertRows(
  tx: Queryable,
  table: string,
  columns: readonly (readonly [name: string, type: string])[],
  rows: readonly Record<string, unknown>[],
): Promise<void> {
  const names = columns.map(([name]) => name).join(', ');
  const recordType = columns.map(([name, type]) => `${name} ${type}`).join(', ');
  // WITH ORDINALITY keeps the file's order (bigserial ids, e.g. of the ledger, follow it).
  const sql =
    `INSERT INTO ${table} (${names}) SELECT ${names} ` +
    `FROM ROWS FROM (jsonb_to_recordset($1::jsonb) AS (${recordType})) WITH ORDINALITY AS r(${names}, ord) ORDER BY ord`;
  for (let start = 0; start < rows.length; start += BATCH_SIZE) {
    await tx.query(sql, [JSON.stringify(rows.slice(start, start + BATCH_SIZE))]);
  }
}

/** The beneficiary details copied into an amount split, as of load time. */
function beneficiarySnapshot(beneficiary: WorldBeneficiary): Record<string, string> {
  const snapshot: Record<string, string> = {
    id: beneficiary.id,
    firstName: beneficiary.firstName,
    lastName: beneficiary.lastName,
    displayName: beneficiary.displayName,
    type: beneficiary.type,
    nationality: beneficiary.nationality,
    bankName: beneficiary.bankName,
  };
  if (beneficiary.iban !== undefined) snapshot.iban = beneficiary.iban;
  if (beneficiary.accountNumber !== undefined) snapshot.accountNumber = beneficiary.accountNumber;
  if (beneficiary.reference !== undefined) snapshot.reference = beneficiary.reference;
  return snapshot;
}

/** Validates the world, then writes all of it in one transaction. */
export async function loadWorld(db: Database, input: unknown): Promise<void> {
  const world = validateWorld(input);
  const requests = world.payrollRequests ?? [];

  // Balances after the requests' debits (validated to stay non-negative).
  const debitsByAccountCurrency = new Map<string, Decimal>();
  for (const request of requests) {
    if (UNDEBITED_STATUSES.has(request.status)) continue;
    const previous = debitsByAccountCurrency.get(request.sourceAccountCurrencyId) ?? new Decimal(0);
    debitsByAccountCurrency.set(request.sourceAccountCurrencyId, previous.plus(request.totalAmount));
  }
  const beneficiariesById = new Map(world.beneficiaries.map((b) => [b.id, b]));
  const decimalsOf = new Map(world.currencies.map((c) => [c.code, c.decimals]));

  await db.transaction(async (tx) => {
    await insertRows(
      tx,
      'currencies',
      [['id', 'uuid'], ['code', 'text'], ['name', 'text'], ['symbol', 'text'], ['decimals', 'integer']],
      world.currencies.map((c) => ({ id: c.id ?? randomUUID(), code: c.code, name: c.name, symbol: c.symbol, decimals: c.decimals })),
    );
    await insertRows(
      tx,
      'customers',
      [['id', 'uuid'], ['first_name', 'text'], ['last_name', 'text'], ['company_legal_name', 'text'], ['spread_bips', 'integer']],
      world.customers.map((c) => ({
        id: c.id,
        first_name: c.firstName,
        last_name: c.lastName,
        company_legal_name: c.companyLegalName,
        spread_bips: c.spreadBips ?? null,
      })),
    );
    await insertRows(
      tx,
      'users',
      [['id', 'uuid'], ['first_name', 'text'], ['last_name', 'text'], ['email', 'text'], ['role', 'text'], ['customer_id', 'uuid']],
      world.users.map((u) => ({
        id: u.id,
        first_name: u.firstName,
        last_name: u.lastName,
        email: u.email,
        role: u.role,
        customer_id: u.customerId ?? null,
      })),
    );
    await insertRows(
      tx,
      'accounts',
      [['id', 'uuid'], ['account_provider', 'text'], ['customer_id', 'uuid']],
      world.accounts.map((a) => ({ id: a.id, account_provider: a.accountProvider, customer_id: a.customerId })),
    );
    const accountCurrencyRows = world.accounts.flatMap((account) =>
      account.currencies.map((c) => {
        const debit = debitsByAccountCurrency.get(c.id);
        // Keep the file's scale ("42000.00" stays so); after a debit, at least the currency's decimals.
        const now = debit === undefined ? c.balance : formatAmount(new Decimal(c.balance).minus(debit), decimalsOf.get(c.currency) ?? 0);
        return { id: c.id, account_id: account.id, currency_code: c.currency, balance: now, available: now };
      }),
    );
    await insertRows(
      tx,
      'account_currencies',
      [['id', 'uuid'], ['account_id', 'uuid'], ['currency_code', 'text'], ['balance', 'numeric'], ['available', 'numeric']],
      accountCurrencyRows,
    );
    await insertRows(
      tx,
      'beneficiaries',
      [
        ['id', 'uuid'],
        ['customer_id', 'uuid'],
        ['first_name', 'text'],
        ['last_name', 'text'],
        ['display_name', 'text'],
        ['type', 'text'],
        ['nationality', 'text'],
        ['bank_name', 'text'],
        ['iban', 'text'],
        ['account_number', 'text'],
        ['reference', 'text'],
        ['active', 'boolean'],
      ],
      world.beneficiaries.map((b) => ({
        id: b.id,
        customer_id: b.customerId,
        first_name: b.firstName,
        last_name: b.lastName,
        display_name: b.displayName,
        type: b.type,
        nationality: b.nationality,
        bank_name: b.bankName,
        iban: b.iban ?? null,
        account_number: b.accountNumber ?? null,
        reference: b.reference ?? null,
        active: b.active ?? true,
      })),
    );
    await insertRows(
      tx,
      'exchange_rates',
      [['from_code', 'text'], ['to_code', 'text'], ['rate', 'numeric']],
      world.rates.map((r) => ({ from_code: r.from, to_code: r.to, rate: r.rate })),
    );
    await insertRows(
      tx,
      'bank_fees',
      [['currency_code', 'text'], ['per_beneficiary', 'numeric']],
      Object.entries(world.fees.bankFeePerBeneficiary).map(([code, fee]) => ({ currency_code: code, per_beneficiary: fee })),
    );
    const scheduleColumns = [
      ['account_provider', 'text'],
      ['currency_code', 'text'],
      ['percent_bps', 'numeric'],
      ['fixed', 'numeric'],
      ['min', 'numeric'],
      ['max', 'numeric'],
    ] as const;
    const scheduleRow = (s: WorldFeeSchedule) => ({
      account_provider: s.accountProvider,
      currency_code: s.currency,
      percent_bps: String(s.percentBps),
      fixed: s.fixed,
      min: s.min,
      max: s.max,
    });
    await insertRows(tx, 'processor_fee_schedules', scheduleColumns, world.fees.processor.map(scheduleRow));
    await insertRows(
      tx,
      'payout_fee_schedules',
      [...scheduleColumns, ['settlement_days', 'integer']],
      world.fees.payout.map((s) => ({ ...scheduleRow(s), settlement_days: s.settlementDays })),
    );
    await insertRows(
      tx,
      'internal_payout_fee_rules',
      [['customer_id', 'uuid'], ['currency_code', 'text'], ['percent_bps', 'numeric'], ['fixed', 'numeric']],
      (world.fees.internalPayout ?? []).map((r) => ({
        customer_id: r.customerId ?? null,
        currency_code: r.currency,
        percent_bps: String(r.percentBps),
        fixed: r.fixed,
      })),
    );

    // The ledger: one opening entry per account currency (dated at load time, or at the
    // earliest request when that is earlier), then the requests' debits (dated at their
    // request's creation).
    const loadedAt = [new Date().toISOString(), ...requests.map((r) => new Date(r.createdAt).toISOString())].sort()[0];
    const ledgerRows: Record<string, unknown>[] = world.accounts.flatMap((account) =>
      account.currencies.map((c) => ({
        account_currency_id: c.id,
        balance_delta: c.balance,
        available_delta: c.balance,
        reason: 'OPENING_BALANCE',
        payroll_request_id: null,
        created_at: loadedAt,
      })),
    );
    for (const request of requests) {
      if (UNDEBITED_STATUSES.has(request.status)) continue;
      const delta = `-${request.totalAmount}`;
      ledgerRows.push({
        account_currency_id: request.sourceAccountCurrencyId,
        balance_delta: delta,
        available_delta: delta,
        reason: 'PAYROLL_DEBIT',
        payroll_request_id: request.id,
        created_at: request.createdAt,
      });
    }
    await insertRows(
      tx,
      'ledger_entries',
      [
        ['account_currency_id', 'uuid'],
        ['balance_delta', 'numeric'],
        ['available_delta', 'numeric'],
        ['reason', 'text'],
        ['payroll_request_id', 'uuid'],
        ['created_at', 'timestamptz'],
      ],
      ledgerRows,
    );

    if (requests.length > 0) await insertPayrollRequests(tx, requests, beneficiariesById);
  });
}

async function insertPayrollRequests(
  tx: Queryable,
  requests: readonly WorldPayrollRequest[],
  beneficiariesById: ReadonlyMap<string, WorldBeneficiary>,
): Promise<void> {
  await insertRows(
    tx,
    'payroll_requests',
    [
      ['id', 'uuid'],
      ['customer_id', 'uuid'],
      ['source_account_currency_id', 'uuid'],
      ['payroll_account_currency_id', 'uuid'],
      ['total_amount', 'numeric'],
      ['status', 'text'],
      ['estimated_fx_rate', 'numeric'],
      ['estimated_received_amount', 'numeric'],
      ['source_amount_for_exchange', 'numeric'],
      ['quote_rate', 'numeric'],
      ['quote_expires_at', 'timestamptz'],
      ['quoted_by_user_id', 'uuid'],
      ['quoted_at', 'timestamptz'],
      ['accepted_by_customer_at', 'timestamptz'],
      ['cancellation_reason', 'text'],
      ['failure_reason', 'text'],
      ['metadata', 'jsonb'],
      ['created_at', 'timestamptz'],
      ['updated_at', 'timestamptz'],
    ],
    requests.map((r) => ({
      id: r.id,
      customer_id: r.customerId,
      source_account_currency_id: r.sourceAccountCurrencyId,
      payroll_account_currency_id: r.payrollAccountCurrencyId,
      total_amount: r.totalAmount,
      status: r.status,
      estimated_fx_rate: r.estimatedFxRate,
      estimated_received_amount: r.estimatedReceivedAmount,
      source_amount_for_exchange: r.sourceAmountForExchange,
      quote_rate: r.quoteRate ?? null,
      quote_expires_at: r.quoteExpiresAt ?? null,
      quoted_by_user_id: r.quotedByUserId ?? null,
      quoted_at: r.quotedAt ?? null,
      accepted_by_customer_at: r.acceptedByCustomerAt ?? null,
      cancellation_reason: r.cancellationReason ?? null,
      failure_reason: r.failureReason ?? null,
      metadata: { feeBreakdown: r.feeBreakdown },
      created_at: r.createdAt,
      updated_at: r.updatedAt,
    })),
  );

  // Transfers first, so that amount splits can point at their payout transfer.
  const splitLinks = new Map<string, string>(); // split id → payout transfer id
  const transferRows = requests.flatMap((request) => {
    const transfers = request.transfers ?? [];
    const splitOfTransfer = new Map<string, string>();
    for (const split of request.amountSplitDetails) {
      if (split.payoutTransferId !== undefined) splitOfTransfer.set(split.payoutTransferId, split.id);
    }
    return transfers.map((t, position) => {
      const amountSplitId = t.amountSplitId ?? splitOfTransfer.get(t.id) ?? null;
      if (amountSplitId !== null) splitLinks.set(amountSplitId, t.id);
      return {
        id: t.id,
        payroll_request_id: request.id,
        transfer_type: t.transferType,
        status: t.status,
        external_id: t.externalId ?? null,
        amount: t.amount,
        currency_code: t.currencyCode,
        fee_id: t.feeDetails?.id ?? null,
        fee_amount: t.feeDetails?.amount ?? null,
        final_internal_fee: t.feeDetails?.finalInternalFee ?? null,
        amount_split_id: amountSplitId,
        executed_at: t.executedAt ?? null,
        completed_at: t.completedAt ?? null,
        failure_reason: t.failureReason ?? null,
        created_at: t.createdAt,
        position,
      };
    });
  });
  await insertRows(
    tx,
    'transfers',
    [
      ['id', 'uuid'],
      ['payroll_request_id', 'uuid'],
      ['transfer_type', 'text'],
      ['status', 'text'],
      ['external_id', 'text'],
      ['amount', 'numeric'],
      ['currency_code', 'text'],
      ['fee_id', 'uuid'],
      ['fee_amount', 'numeric'],
      ['final_internal_fee', 'numeric'],
      ['amount_split_id', 'uuid'],
      ['executed_at', 'timestamptz'],
      ['completed_at', 'timestamptz'],
      ['failure_reason', 'text'],
      ['created_at', 'timestamptz'],
      ['position', 'integer'],
    ],
    transferRows,
  );

  const splitRows = requests.flatMap((request) =>
    request.amountSplitDetails.map((s, position) => {
      const beneficiary = beneficiariesById.get(s.beneficiaryId);
      if (!beneficiary) throw new Error(`beneficiary ${s.beneficiaryId} vanished after validation`);
      return {
        id: s.id,
        payroll_request_id: request.id,
        beneficiary_id: s.beneficiaryId,
        beneficiary_snapshot: beneficiarySnapshot(beneficiary),
        source_currency_amount: s.sourceCurrencyAmount,
        amount: s.amount,
        purpose_code: s.purposeCode,
        payout_transfer_id: s.payoutTransferId ?? splitLinks.get(s.id) ?? null,
        created_at: request.createdAt,
        position,
      };
    }),
  );
  await insertRows(
    tx,
    'amount_splits',
    [
      ['id', 'uuid'],
      ['payroll_request_id', 'uuid'],
      ['beneficiary_id', 'uuid'],
      ['beneficiary_snapshot', 'jsonb'],
      ['source_currency_amount', 'numeric'],
      ['amount', 'numeric'],
      ['purpose_code', 'text'],
      ['payout_transfer_id', 'uuid'],
      ['created_at', 'timestamptz'],
      ['position', 'integer'],
    ],
    splitRows,
  );

  await insertRows(
    tx,
    'fx_exchanges',
    [
      ['id', 'uuid'],
      ['payroll_request_id', 'uuid'],
      ['from_currency_code', 'text'],
      ['to_currency_code', 'text'],
      ['from_amount', 'numeric'],
      ['to_amount', 'numeric'],
      ['exchange_rate', 'numeric'],
      ['fee_id', 'uuid'],
      ['fee_amount', 'numeric'],
      ['final_internal_fee', 'numeric'],
      ['recorded_by_user_id', 'uuid'],
      ['recorded_at', 'timestamptz'],
      ['created_at', 'timestamptz'],
    ],
    requests.flatMap((r) =>
      r.fxExchange
        ? [
            {
              id: r.fxExchange.id,
              payroll_request_id: r.id,
              from_currency_code: r.fxExchange.fromCurrencyCode,
              to_currency_code: r.fxExchange.toCurrencyCode,
              from_amount: r.fxExchange.fromAmount,
              to_amount: r.fxExchange.toAmount,
              exchange_rate: r.fxExchange.exchangeRate,
              fee_id: r.fxExchange.feeDetails.id,
              fee_amount: r.fxExchange.feeDetails.amount,
              final_internal_fee: r.fxExchange.feeDetails.finalInternalFee,
              recorded_by_user_id: r.fxExchange.recordedByUserId,
              recorded_at: r.fxExchange.recordedAt,
              created_at: r.fxExchange.createdAt,
            },
          ]
        : [],
    ),
  );
}

/** True when no customer exists yet (no world has been loaded). */
export async function isDatabaseEmpty(db: Database): Promise<boolean> {
  const rows = await db.query<{ empty: boolean }>('SELECT NOT EXISTS (SELECT 1 FROM customers) AS empty');
  return rows[0]?.empty === true;
}

/** Reads a world file and loads it when the database is empty. Returns whether it loaded. */
export async function seedIfEmpty(db: Database, file: string): Promise<boolean> {
  if (!(await isDatabaseEmpty(db))) return false;
  const text = await readFile(file, 'utf8');
  let input: unknown;
  try {
    input = JSON.parse(text);
  } catch (error) {
    throw new WorldValidationError('world', `${file} is not valid JSON (${(error as Error).message})`);
  }
  await loadWorld(db, input);
  return true;
}
