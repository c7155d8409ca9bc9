import type { BankToCustomerMessage } from './bankBooks.js';
import type { StatusReport } from './statusReport.js';
import type { WpsAgentAnswer } from './wpsAnswers.js';

/**
 * Every message the partner bank sends us, as the file adapter reads it: a status report on a
 * payment file of ours (pain.002), a notification of bookings (camt.054) or a day's statement
 * (camt.053), or the WPS agent's answer to a salary file (docs/wps.md). Told apart by `kind`; each
 * is applied once, by its MsgId.
 */
export type BankMessage = StatusReport | BankToCustomerMessage | WpsAgentAnswer;

/** The file a message came in. */
export interface BankFile {
  fileName: string;
  sha256: string;
  receivedAt: Date;
}

/**
 * What applying a message did. `settled` counts the payouts a status report settled, `applied` the
 * entries and exceptions of what the bank booked; `ignored` says why a message changes nothing and
 * is kept all the same (a refusal of a second copy); `rejected` sends the file to rejected/ with the
 * reason, changing nothing.
 */
export type BankMessageOutcome =
  | { kind: 'applied'; entries: number; exceptions: number }
  | { kind: 'settled'; payouts: number }
  | { kind: 'already-applied' }
  | { kind: 'ignored'; reason: string }
  | { kind: 'rejected'; reason: string };

/** The bank-messages use case as the inbox calls it (the composition root wires one to the other). */
export type ApplyBankMessage = (message: BankMessage, file: BankFile) => Promise<BankMessageOutcome>;
