/**
 * The second check of a world file, part three: each payroll request refers to the customer's
 * own accounts and beneficiaries, its figures are in the right currencies, and the funds it
 * holds do not exceed its source account currency's opening balance.
 */
import { formatExact, parseAmount, type Money } from '../domain/money/money.js';
import { checkPayoutLinks } from './checkPayoutLinks.js';
import { runningDebits } from './debits.js';
import { requireAdmin, requireCurrency, requireCustomer, type AccountCurrencyInfo, type WorldIndex } from './referenceIndex.js';
import type { World, WorldPayrollRequest } from './types.js';
import { fail, uniqueIndex, type At, type PathSegment } from './validationError.js';

export function checkPayrollRequests(world: World, index: WorldIndex): void {
  const requests = world.payrollRequests ?? [];
  uniqueIndex(
    requests,
    (r) => r.id,
    (i) => ['payrollRequests', i, 'id'],
    'payroll request id',
  );
  // Split, transfer and FX ids are unique across the whole file.
  const seenSplitIds = new Map<string, PathSegment[]>();
  const seenTransferIds = new Map<string, PathSegment[]>();
  const seenFxIds = new Map<string, PathSegment[]>();
  const debits = new Map(runningDebits(requests).map((debit) => [debit.position, debit.accountTotal]));

  requests.forEach((request, r) => {
    const at: At = (...rest) => ['payrollRequests', r, ...rest];
    // A world file records no creator or approval: an approval flow starts from the API.
    if (request.status === 'AWAITING_APPROVAL') fail(at('status'), 'AWAITING_APPROVAL is not loaded from a world file; create the request through the API');
    const source = checkAccountsAndBreakdown(request, at, index);
    const splits = checkSplits(request, at, index, seenSplitIds);
    checkPayoutLinks(request, at, index, splits, seenTransferIds);
    checkFxExchange(request, at, index, seenFxIds);
    const debited = debits.get(r);
    if (debited) checkBalanceCovers(request, at, index.world, source, debited);
  });
}

/** The source account is the customer's; the payroll account is the customer's or a partner bank's. */
function checkAccountsAndBreakdown(request: WorldPayrollRequest, at: At, index: WorldIndex): AccountCurrencyInfo {
  requireCustomer(index, request.customerId, at('customerId'));
  const source = index.accountCurrencies.get(request.sourceAccountCurrencyId);
  if (!source) fail(at('sourceAccountCurrencyId'), `unknown account currency ${request.sourceAccountCurrencyId}`);
  if (source.customerId !== request.customerId) {
    fail(at('sourceAccountCurrencyId'), `account currency ${request.sourceAccountCurrencyId} does not belong to customer ${request.customerId}`);
  }
  const payroll = index.accountCurrencies.get(request.payrollAccountCurrencyId);
  if (!payroll) fail(at('payrollAccountCurrencyId'), `unknown account currency ${request.payrollAccountCurrencyId}`);
  if (payroll.customerId !== null && payroll.customerId !== request.customerId) {
    fail(at('payrollAccountCurrencyId'), `account currency ${request.payrollAccountCurrencyId} is neither a partner-bank account nor the customer's own`);
  }
  const breakdown = request.feeBreakdown;
  requireCurrency(index, breakdown.payrollCurrencyCode, at('feeBreakdown', 'payrollCurrencyCode'));
  requireCurrency(index, breakdown.feeCurrencyCode, at('feeBreakdown', 'feeCurrencyCode'));
  if (breakdown.payrollCurrencyCode !== payroll.currency) {
    fail(at('feeBreakdown', 'payrollCurrencyCode'), `must be ${payroll.currency}, the currency of the payroll account currency`);
  }
  if (breakdown.feeCurrencyCode !== source.currency) {
    fail(at('feeBreakdown', 'feeCurrencyCode'), `must be ${source.currency}, the currency of the source account currency`);
  }
  if (request.quotedByUserId !== undefined) requireAdmin(index, request.quotedByUserId, at('quotedByUserId'));
  return source;
}

/** Unique split ids (file-wide), one split per beneficiary, each beneficiary the customer's. */
function checkSplits(request: WorldPayrollRequest, at: At, index: WorldIndex, seenSplitIds: Map<string, PathSegment[]>): Map<string, number> {
  const splits = request.amountSplitDetails;
  const byId = uniqueIndex(
    splits,
    (s) => s.id,
    (s) => at('amountSplitDetails', s, 'id'),
    'amount split id',
    seenSplitIds,
  );
  uniqueIndex(
    splits,
    (s) => s.beneficiaryId,
    (s) => at('amountSplitDetails', s, 'beneficiaryId'),
    'beneficiary in the request',
  );
  splits.forEach((split, s) => {
    const b = index.beneficiaries.get(split.beneficiaryId);
    if (b === undefined) fail(at('amountSplitDetails', s, 'beneficiaryId'), `unknown beneficiary ${split.beneficiaryId}`);
    if (index.world.beneficiaries[b]?.customerId !== request.customerId) {
      fail(at('amountSplitDetails', s, 'beneficiaryId'), `beneficiary ${split.beneficiaryId} does not belong to customer ${request.customerId}`);
    }
  });
  return byId;
}

function checkFxExchange(request: WorldPayrollRequest, at: At, index: WorldIndex, seenFxIds: Map<string, PathSegment[]>): void {
  const fx = request.fxExchange;
  if (!fx) return;
  uniqueIndex(
    [fx],
    (x) => x.id,
    () => at('fxExchange', 'id'),
    'fx exchange id',
    seenFxIds,
  );
  requireCurrency(index, fx.fromCurrencyCode, at('fxExchange', 'fromCurrencyCode'));
  requireCurrency(index, fx.toCurrencyCode, at('fxExchange', 'toCurrencyCode'));
  requireAdmin(index, fx.recordedByUserId, at('fxExchange', 'recordedByUserId'));
}

/** `debited`: this request's debit plus those of earlier requests on the same account currency. */
function checkBalanceCovers(request: WorldPayrollRequest, at: At, world: World, source: AccountCurrencyInfo, debited: Money): void {
  const opening = world.accounts[source.accountIndex]?.currencies[source.currencyIndex]?.balance ?? '0';
  if (debited.greaterThan(parseAmount(opening))) {
    fail(at('totalAmount'), `debits of account currency ${request.sourceAccountCurrencyId} (${formatExact(debited)}) exceed its balance ${opening}`);
  }
}
