/**
 * What the partner bank booked on an account, as its ISO 20022 cash-management messages say it
 * (camt.054 notifications as each booking happens, camt.053 end-of-day statements): plain values,
 * read by the file adapter and applied by the bank-books use case. Amounts are decimal strings
 * exactly as the file wrote them (the entry's currency's minor units).
 */

export type CreditDebit = 'CRDT' | 'DBIT';

/** A return's reason (`RtrInf/Rsn/Cd`, an ISO external return reason such as AC04) and its text (`RtrInf/AddtlInf`). */
export interface BankReturnReason {
  code: string | null;
  text: string | null;
}

/** One transaction inside an entry (`NtryDtls/TxDtls`). */
export interface BankTransaction {
  /** `Refs/EndToEndId`: what our pain.001 named the payout by (its transfer id without hyphens). */
  endToEndId: string | null;
  /** `Refs/AcctSvcrRef`, the bank's own reference of the transaction. */
  accountServicerReference: string | null;
  /** `AmtDtls/TxAmt/Amt` or `Amt`, when given. */
  amount: string | null;
  currency: string | null;
  creditDebit: CreditDebit | null;
  /** `RtrInf`, present on a return. */
  returnReason: BankReturnReason | null;
  /** The transaction's charges (`Chrgs/TtlChrgsAndTaxAmt` or the sum of `Chrgs/Rcrd/Amt`), when given. */
  charges: string | null;
}

/** One booking line (`Ntry`). */
export interface BankEntry {
  /** `NtryRef`. */
  entryReference: string | null;
  /** `AcctSvcrRef`: the bank's reference of the booking. */
  accountServicerReference: string | null;
  amount: string;
  currency: string;
  creditDebit: CreditDebit;
  /** `RvslInd`: the entry reverses an earlier one. */
  reversal: boolean;
  /** `Sts/Cd`: BOOK, PDNG or INFO. */
  status: string;
  /** `BookgDt` (`Dt` as YYYY-MM-DD, or `DtTm` as an ISO date-time). */
  bookingDate: string | null;
  valueDate: string | null;
  /** The entry's charges (`Chrgs/TtlChrgsAndTaxAmt` or the sum of `Chrgs/Rcrd/Amt`), when given. */
  charges: string | null;
  transactions: BankTransaction[];
}

export interface BankBalance {
  /** `Tp/CdOrPrtry/Cd`: OPBD, CLBD, … */
  type: string;
  amount: string;
  currency: string;
  creditDebit: CreditDebit;
  /** `Dt/Dt` or `Dt/DtTm`. */
  date: string;
}

/** One account's report inside a message (`Stmt` of a camt.053, `Ntfctn` of a camt.054). */
export interface BankAccountReport {
  /** `Stmt/Id` or `Ntfctn/Id`. */
  reportId: string;
  /** `Acct/Id/IBAN` (or `Acct/Id/Othr/Id` in `otherId`). */
  account: { iban: string | null; otherId: string | null; currency: string | null };
  /** `FrToDt`, when given. */
  period: { from: string; to: string } | null;
  /** A statement's balances (empty for a notification). */
  balances: BankBalance[];
  entries: BankEntry[];
}

/** A whole camt.053 or camt.054 file. */
export interface BankToCustomerMessage {
  kind: 'camt.053' | 'camt.054';
  /** `GrpHdr/MsgId`: a message is applied once by it. */
  msgId: string;
  /** `GrpHdr/CreDtTm`. */
  createdAt: string;
  reports: BankAccountReport[];
}

/** Money that arrived in a partner-bank account, as the service's ledger recorded it. */
export interface PartnerAccountCredit {
  journalEntryId: string;
  /** FX_CONVERSION: a payroll's converted amount moved into the account; FUNDING, OPENING_BALANCE: money from outside. */
  kind: 'FX_CONVERSION' | 'FUNDING' | 'OPENING_BALANCE';
  amount: string;
  bookedAt: Date;
  /** For FX_CONVERSION, the payroll's move-to-bank leg (its PROCESSOR_TO_BANK transfer), whose id names the credit. */
  transferId: string | null;
  payrollRequestId: string | null;
  fundingId: string | null;
}

export interface PartnerAccountBookings {
  accountCurrencyId: string;
  /** The ledger's balance of the account (Σ of its postings) just before `from`. */
  balanceBefore: string;
  /** The credits into the account from `from` (inclusive) to `to` (exclusive), in the order they were posted. */
  credits: PartnerAccountCredit[];
}

/** What arrived in a partner-bank account in a period (null when no partner-bank account has that IBAN in that currency). */
export type PartnerAccountBookingsReader = (account: { iban: string; currency: string }, from: Date, to: Date) => Promise<PartnerAccountBookings | null>;
