/**
 * What a world's payroll requests imply for the ledger, computed by the domain's settlement rules
 * (the API's own, so that loaded data reads as if the API had made it): each request's figures at its quote, its FX result, the credit-backs of its failed
 * payouts, and the journal entries of its history; plus one opening balance per account currency.
 * Computed before anything is written: a figure the rules refuse is a WorldValidationError.
 */
import type { Decimal } from 'decimal.js';
import { DomainError } from '../domain/errors.js';
import { type LedgerAccount, type JournalEntry } from '../domain/ledger/journal.js';
import { openingBalance } from '../domain/ledger/journalEntries.js';
import { type PayrollHistory, replayPayrollHistory } from '../domain/ledger/journalReplay.js';
import { type SettlementScales, settlementScales } from '../domain/money/minorUnits.js';
import { parseAmount } from '../domain/money/money.js';
import { type FxRecordFigures, type QuoteFigures, creditBackFor, fxRecordFigures, quoteFigures } from '../domain/payroll/settlement.js';
import type { DatedEntry } from '../store/ledger/ledger.js';
import { checkRequestScales } from './checkScales.js';
import type { World, WorldPayrollRequest } from './types.js';
import { type At, fail } from './validationError.js';

export interface RequestSettlement {
  scales: SettlementScales;
  /** The figures at the request's quote; null when it has none. */
  quote: QuoteFigures | null;
  /** Accepted: the quote's figures are final (total_amount, source_amount_for_exchange). */
  accepted: boolean;
  fx: FxRecordFigures | null;
  /** Per split, in order: what its failed payout credited back, or null. */
  returned: Array<Decimal | null>;
  entries: JournalEntry[];
}

interface AccountCurrencyFacts {
  code: string;
  decimals: number;
  account: LedgerAccount;
}

function accountCurrencyFacts(world: World): Map<string, AccountCurrencyFacts> {
  const decimalsOf = new Map(world.currencies.map((c) => [c.code, c.decimals]));
  return new Map(
    world.accounts.flatMap((account) =>
      account.currencies.map((c) => {
        const ledgerAccount: LedgerAccount = { kind: account.customerId === null ? 'PLATFORM_BANK' : 'CUSTOMER', accountCurrencyId: c.id };
        return [c.id, { code: c.currency, decimals: decimalsOf.get(c.currency) ?? 0, account: ledgerAccount }] as const;
      }),
    ),
  );
}

/** A domain refusal (a zero split, a rate out of bounds) said at the world path it comes from. */
function asWorldError<T>(path: ReturnType<At>, run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof DomainError) fail(path, error.message);
    throw error;
  }
}

/** The payouts that settled, each with its split's quoted figures; its amount must be the quoted one. */
function payoutOutcomes(request: WorldPayrollRequest, quote: QuoteFigures, at: At): PayrollHistory['payouts'] {
  const transfers = request.transfers ?? [];
  return transfers.flatMap((transfer, t) => {
    if (transfer.transferType !== 'BANK_TO_BENEFICIARY' || (transfer.status !== 'COMPLETED' && transfer.status !== 'FAILED')) return [];
    const index = request.amountSplitDetails.findIndex((split) => split.id === transfer.amountSplitId || split.payoutTransferId === transfer.id);
    const split = quote.splits[index];
    if (!split) fail(at('transfers', t), 'a settled payout must be linked to an amount split');
    if (!parseAmount(transfer.amount).equals(split.quotedAmount)) {
      fail(
        at('transfers', t, 'amount'),
        `must be the split's quoted amount ${split.quotedAmount.toFixed()} (each payout pays exactly what the accepted quote showed)`,
      );
    }
    return [{ split, status: transfer.status, transferId: transfer.id }];
  });
}

function legStatus(request: WorldPayrollRequest, type: 'PROCESSOR_INTERNAL_DEBIT' | 'PROCESSOR_TO_BANK'): PayrollHistory['processorLeg'] {
  return request.transfers?.find((transfer) => transfer.transferType === type)?.status ?? null;
}

function settleRequest(request: WorldPayrollRequest, at: At, facts: ReadonlyMap<string, AccountCurrencyFacts>): RequestSettlement {
  const source = facts.get(request.sourceAccountCurrencyId)!;
  const payroll = facts.get(request.payrollAccountCurrencyId)!;
  const scales = settlementScales(source, payroll);
  checkRequestScales(request, scales, at);
  const breakdown = request.feeBreakdown;
  const debitedAmount = parseAmount(request.totalAmount);
  const quote =
    request.quoteRate === undefined
      ? null
      : asWorldError(at('quoteRate'), () =>
          quoteFigures({
            splits: request.amountSplitDetails.map((split) => ({
              amountCurrencyType: split.amountCurrencyType ?? 'SOURCE',
              sourceCurrencyAmount: parseAmount(split.sourceCurrencyAmount),
              amount: parseAmount(split.amount),
            })),
            quoteRate: parseAmount(request.quoteRate!),
            scales,
            sameCurrency: source.code === payroll.code,
            feeAmount: parseAmount(breakdown.totalFee),
            debitedAmount,
          }),
        );
  const accepted = quote !== null && request.acceptedByCustomerAt !== undefined;
  if (request.fxExchange && !accepted) fail(at('fxExchange'), 'an FX record needs an accepted quote (quoteRate and acceptedByCustomerAt)');
  const fx =
    accepted && request.fxExchange
      ? fxRecordFigures(quote.sourceAmountForExchange, parseAmount(request.fxExchange.exchangeRate), scales.payroll, quote.splits)
      : null;
  const payouts = accepted ? payoutOutcomes(request, quote, at) : [];
  const history: PayrollHistory = {
    ledger: {
      sourceAccountCurrencyId: request.sourceAccountCurrencyId,
      sourceCurrency: source.code,
      payrollAccountCurrencyId: request.payrollAccountCurrencyId,
      payrollCurrency: payroll.code,
    },
    refs: { payrollRequestId: request.id },
    debitedAmount,
    fees: { spreadFee: parseAmount(breakdown.spreadFee), processorFee: parseAmount(breakdown.processorFee), bankFee: parseAmount(breakdown.bankFee) },
    cancelled: request.status === 'CANCELLED',
    accepted: accepted ? quote : null,
    processorLeg: legStatus(request, 'PROCESSOR_INTERNAL_DEBIT'),
    bankLeg: legStatus(request, 'PROCESSOR_TO_BANK'),
    fx,
    payouts,
  };
  const returned = request.amountSplitDetails.map((_, index) => {
    const failed = payouts.find((payout) => payout.status === 'FAILED' && payout.split === quote?.splits[index]);
    return failed ? creditBackFor(failed.split) : null;
  });
  return { scales, quote, accepted, fx, returned, entries: replayPayrollHistory(history) };
}

export interface WorldSettlement {
  /** In the order of world.payrollRequests. */
  requests: RequestSettlement[];
  /** Opening balances, then each request's history, oldest request first: every balance is the sum of its postings. */
  journal: DatedEntry[];
}

export function settleWorld(world: World): WorldSettlement {
  const facts = accountCurrencyFacts(world);
  const requests = world.payrollRequests ?? [];
  const settlements = requests.map((request, r) => settleRequest(request, (...rest) => ['payrollRequests', r, ...rest], facts));
  // Openings are dated at load time, or at the earliest request when that is earlier.
  const loadedAt = [new Date().toISOString(), ...requests.map((r) => new Date(r.createdAt).toISOString())].sort()[0]!;
  const openings = world.accounts.flatMap((account) =>
    account.currencies.map((c) => ({ entry: openingBalance(facts.get(c.id)!.account, c.currency, parseAmount(c.balance)), at: loadedAt })),
  );
  // Posted oldest request first, so that a statement (newest posting first) is also newest date first.
  const histories = settlements
    .flatMap((settlement, r) => settlement.entries.map((entry) => ({ entry, at: requests[r]!.createdAt })))
    .sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  return { requests: settlements, journal: [...openings, ...histories] };
}
