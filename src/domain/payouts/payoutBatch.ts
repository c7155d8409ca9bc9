import type { WpsEmployer, WpsSalary } from '../bank/wpsSalaryFile.js';

/**
 * A batch of payouts as the partner bank needs it: the store loads it, the rails (simulated, or
 * ISO 20022 files) send it. One shape for both, so that a bank file and the batch it came from
 * never describe a payout, or name a beneficiary, differently.
 */

/** Who is paid: the beneficiary as the payout recorded it (its split's or payout's snapshot). */
export interface Creditor {
  /** The beneficiary's display name; its first and last names where a snapshot has none. */
  name: string;
  iban: string | null;
  accountNumber: string | null;
  bankName: string | null;
  bic: string | null;
}

/** Who pays: the account currency the payouts leave from. */
export interface Debtor {
  accountCurrencyId: string;
  accountProvider: string;
  name: string;
  iban: string | null;
  bic: string | null;
}

/** One payout of a batch: what the bank needs to pay one beneficiary. transferId is its idempotency key. */
export interface PayoutBatchItem {
  transferId: string;
  /** Decimal string in the batch currency, at that currency's minor units. */
  amount: string;
  creditor: Creditor;
  /** Bank purpose code (FCISS, PEN, OFS, …). */
  purposeCode: string | null;
  /** The beneficiary's bank reference (unstructured remittance information). */
  beneficiaryReference: string | null;
  /** A WPS salary's employee ids, period and parts (docs/wps.md), when the payroll is paid through WPS. */
  wps?: Omit<WpsSalary, 'transferId' | 'iban' | 'accountNumber'> | null;
}

/** The payouts of one payroll request (or one single payout), sent to the partner bank together. */
export interface PayoutBatch {
  /** UUID; the batch's idempotency key (a bank file's MsgId is derived from it). */
  batchId: string;
  payrollRequestId: string | null;
  currencyCode: string;
  debtor: Debtor;
  /** YYYY-MM-DD */
  requestedExecutionDate: string;
  items: PayoutBatchItem[];
  /** The employer, when the batch is a WPS employer's AED payroll: a Salary Information File goes with the payment file. */
  wpsEmployer?: WpsEmployer | null;
}

/** The rail's record of a batch's Salary Information File (wps_salary_files). */
export interface SalaryFileRecord {
  batchId: string;
  fileName: string;
  payrollRequestId: string | null;
  edrCount: number;
  total: string;
  /** The SHA-256 (hex) of the file's bytes, recorded before it is written. */
  sha256: string;
  createdAt: Date;
  writtenAt: Date | null;
}

/** The ISO 20022 rail's record of a payment file (bank_files). */
export interface BankFileBatch {
  batchId: string;
  msgId: string;
  writtenAt: Date | null;
  refusal: string | null;
  items: { transferId: string; endToEndId: string }[];
}

export interface NewBankFileBatch {
  batchId: string;
  /** Set when the batch cannot go to the bank as a file: every payout is recorded FAILED with it. */
  refusal: string | null;
  msgId: string;
  payrollRequestId: string | null;
  currencyCode: string;
  controlSum: string;
  createdAt: Date;
  items: { transferId: string; endToEndId: string; amount: string }[];
}

/** A payout of a payment file the bank has settled (COMPLETED or FAILED with its reason). */
export interface SettledBankFileItem {
  transferId: string;
  status: 'COMPLETED' | 'FAILED';
  failureReason: string | null;
}
