/**
 * The ExternalStatusReason1Code values a partner bank commonly sends in a pain.002, with the short
 * text of ISO 20022's external code list. A failed payout's failureReason is "<code> <text>"
 * (e.g. "AC04 closed account"); a code not listed here keeps the bank's own additional information.
 */
const REASONS: Readonly<Record<string, string>> = {
  AC01: 'incorrect account number',
  AC03: 'invalid creditor account number',
  AC04: 'closed account',
  AC06: 'blocked account',
  AG01: 'transaction forbidden',
  AG02: 'invalid bank operation code',
  AM02: 'not allowed amount',
  AM04: 'insufficient funds',
  AM05: 'duplication',
  BE01: 'inconsistent with end customer',
  BE04: 'missing creditor address',
  CH11: 'creditor identifier incorrect',
  DT01: 'invalid date',
  DU01: 'duplicate message id',
  DU02: 'duplicate payment information id',
  FF01: 'invalid file format',
  MS02: 'not specified reason customer generated',
  MS03: 'not specified reason agent generated',
  NARR: 'narrative',
  RC01: 'bank identifier incorrect',
  RR01: 'missing debtor account or identification',
  RR02: 'missing debtor name or address',
  RR03: 'missing creditor name or address',
  RR04: 'regulatory reason',
  TM01: 'invalid cut off time',
};

/** The text of a reason code, for a failureReason; undefined for a code this table does not know. */
export function reasonText(code: string): string | undefined {
  return REASONS[code];
}
