/** What resending a payment file did: put it back in the outbox, or found it still there (nothing written). */
export interface ResentFile {
  outcome: 'WRITTEN' | 'ALREADY_IN_OUTBOX';
  /** The sha256 of the file's bytes (hex), the same whichever copy it was read from. */
  sha256: string;
  bytes: number;
}

/** The outbox as an operator's resend reaches it: the very file the bank was sent, never one built again. */
export interface BankOutbox {
  /** Null when neither the outbox nor its delivered files hold `<msgId>.xml`. */
  resend(msgId: string): Promise<ResentFile | null>;
  /** Whether `<msgId>.xml` is in the outbox: written (or resent) and not yet taken by the transport. */
  waiting(msgId: string): Promise<boolean>;
}
