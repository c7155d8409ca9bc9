import type { JournalRefs } from '../../domain/ledger/journal.js';
import type { LockedFees, PayrollLedger } from '../../domain/ledger/journalEntries.js';
import { type SettlementScales, settlementScales } from '../../domain/money/minorUnits.js';
import { Money } from '../../domain/money/money.js';
import type { LockedPayrollRequest } from '../../store/payroll/payrollRequestUpdates.js';

/** What the settlement rules need of a locked payroll request: its two ledger accounts, scales, fees and quoted splits. */

type RequestCurrencies = Pick<
  LockedPayrollRequest,
  'sourceAccountCurrencyId' | 'sourceCurrencyCode' | 'sourceDecimals' | 'payrollAccountCurrencyId' | 'payrollCurrencyCode' | 'payrollDecimals'
>;

export function payrollLedgerOf(request: RequestCurrencies): PayrollLedger {
  return {
    sourceAccountCurrencyId: request.sourceAccountCurrencyId,
    sourceCurrency: request.sourceCurrencyCode,
    payrollAccountCurrencyId: request.payrollAccountCurrencyId,
    payrollCurrency: request.payrollCurrencyCode,
  };
}

export function scalesOf(request: RequestCurrencies): SettlementScales {
  return settlementScales(
    { code: request.sourceCurrencyCode, decimals: request.sourceDecimals },
    { code: request.payrollCurrencyCode, decimals: request.payrollDecimals },
  );
}

export const sameCurrency = (request: RequestCurrencies): boolean => request.sourceCurrencyCode === request.payrollCurrencyCode;

/** The fees the feeHash locked (metadata.feeBreakdown): a quote never changes them. */
export function lockedFeesOf(request: Pick<LockedPayrollRequest, 'metadata'>): LockedFees {
  const { spreadFee, processorFee, bankFee } = request.metadata.feeBreakdown;
  return { spreadFee: new Money(spreadFee), processorFee: new Money(processorFee), bankFee: new Money(bankFee) };
}

export const requestRefs = (request: Pick<LockedPayrollRequest, 'id'>): JournalRefs => ({ payrollRequestId: request.id });
