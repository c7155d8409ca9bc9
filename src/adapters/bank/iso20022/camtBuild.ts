import type { BankAccountReport, BankEntry, BankToCustomerMessage, BankTransaction } from '../../../domain/bank/bankBooks.js';
import { maxText } from './text.js';
import { buildXml } from './xml.js';

/** The namespaces of the bank's two cash-management messages (version .08, as CBPR+ banks send them). */
const CAMT_053_NAMESPACE = 'urn:iso:std:iso:20022:tech:xsd:camt.053.001.08';
export const CAMT_054_NAMESPACE = 'urn:iso:std:iso:20022:tech:xsd:camt.054.001.08';

/** Where the entries of a report go in its skeleton: replaced by the entries' own XML. */
const ENTRIES_PLACEHOLDER = 'ENTRIES-OF-THIS-REPORT';

/**
 * A camt.053.001.08 statement or camt.054.001.08 notification, as the bank (our simulator, the tests'
 * fixtures, the bench) writes it, in pieces: the document up to a report's first entry, each entry,
 * and so on, so that a 100,000-entry statement is never one object tree. `buildCamt` joins them.
 * Every text goes through fast-xml-parser's builder (escaped); key order is the schema's element order.
 */
export function* camtChunks(message: BankToCustomerMessage): Generator<string> {
  const statement = message.kind === 'camt.053';
  const reports = message.reports.map((report) => ({ [statement ? 'Stmt' : 'Ntfctn']: reportElement(report, message.createdAt, statement) }));
  const document = buildXml({
    Document: {
      '@_xmlns': statement ? CAMT_053_NAMESPACE : CAMT_054_NAMESPACE,
      [statement ? 'BkToCstmrStmt' : 'BkToCstmrDbtCdtNtfctn']: { GrpHdr: { MsgId: message.msgId, CreDtTm: message.createdAt }, __reports: ENTRIES_PLACEHOLDER },
    },
  });
  // The skeleton holds one placeholder for the reports; each report's skeleton one for its entries.
  const [head, tail] = splitAround(document, `<__reports>${ENTRIES_PLACEHOLDER}</__reports>`);
  yield head.trimEnd();
  for (const [index, report] of reports.entries()) {
    const [before, after] = splitAround(buildFragment(report), `<Ntry>${ENTRIES_PLACEHOLDER}</Ntry>`);
    yield indented(before.trimEnd(), 2);
    // One line per entry: a payroll day's statement stays a third smaller, and greps entry by entry.
    for (const entry of message.reports[index]!.entries) yield indented(buildFragment({ Ntry: entryElement(entry) }, false), 3);
    yield indented(after.trim(), 2);
  }
  yield `\n${tail.replace(/^\s*\n/, '').trimEnd()}\n`;
}

/** The whole document as one string (for the sizes a notification or a test has). */
export function buildCamt(message: BankToCustomerMessage): string {
  return [...camtChunks(message)].join('');
}

function buildFragment(element: Record<string, unknown>, format = true): string {
  return buildXml(element, format)
    .replace(/^<\?xml[^>]*\?>\n?/, '')
    .trim();
}

/** A fragment on lines of its own at `depth` (two spaces a level), as the builder indents the rest. */
function indented(fragment: string, depth: number): string {
  const pad = '  '.repeat(depth);
  return `\n${pad}${fragment.replace(/\n/g, `\n${pad}`)}`;
}

function splitAround(text: string, marker: string): [string, string] {
  const at = text.indexOf(marker);
  if (at < 0) throw new Error(`camt builder: marker ${marker} not found`);
  return [text.slice(0, at), text.slice(at + marker.length)];
}

function reportElement(report: BankAccountReport, createdAt: string, statement: boolean): Record<string, unknown> {
  const { iban, otherId, currency } = report.account;
  return {
    Id: report.reportId,
    CreDtTm: createdAt,
    ...(report.period ? { FrToDt: { FrDtTm: report.period.from, ToDtTm: report.period.to } } : {}),
    Acct: { Id: iban ? { IBAN: iban } : { Othr: { Id: otherId } }, ...(currency ? { Ccy: currency } : {}) },
    ...(statement
      ? {
          Bal: report.balances.map((balance) => ({
            Tp: { CdOrPrtry: { Cd: balance.type } },
            Amt: amount(balance.amount, balance.currency),
            CdtDbtInd: balance.creditDebit,
            Dt: dateChoice(balance.date),
          })),
        }
      : {}),
    Ntry: ENTRIES_PLACEHOLDER,
  };
}

function entryElement(entry: BankEntry): Record<string, unknown> {
  return {
    NtryRef: entry.entryReference ?? undefined,
    Amt: amount(entry.amount, entry.currency),
    CdtDbtInd: entry.creditDebit,
    ...(entry.reversal ? { RvslInd: 'true' } : {}),
    Sts: { Cd: entry.status },
    ...(entry.bookingDate ? { BookgDt: dateChoice(entry.bookingDate) } : {}),
    ...(entry.valueDate ? { ValDt: dateChoice(entry.valueDate) } : {}),
    AcctSvcrRef: entry.accountServicerReference ?? undefined,
    BkTxCd: { Domn: { Cd: 'PMNT', Fmly: bankTransactionFamily(entry) } },
    ...(entry.charges ? { Chrgs: charges(entry.charges, entry.currency) } : {}),
    ...(entry.transactions.length > 0
      ? { NtryDtls: { TxDtls: entry.transactions.map((transaction) => transactionElement(transaction, entry.currency)) } }
      : {}),
  };
}

function transactionElement(transaction: BankTransaction, entryCurrency: string): Record<string, unknown> {
  const refs = { AcctSvcrRef: transaction.accountServicerReference ?? undefined, EndToEndId: transaction.endToEndId ?? undefined };
  const reason = transaction.returnReason;
  return {
    ...(refs.AcctSvcrRef || refs.EndToEndId ? { Refs: refs } : {}),
    ...(transaction.amount ? { Amt: amount(transaction.amount, transaction.currency ?? entryCurrency) } : {}),
    CdtDbtInd: transaction.creditDebit ?? undefined,
    ...(transaction.charges ? { Chrgs: charges(transaction.charges, transaction.currency ?? entryCurrency) } : {}),
    ...(reason ? { RtrInf: { ...(reason.code ? { Rsn: { Cd: reason.code } } : {}), ...(reason.text ? { AddtlInf: maxText(reason.text, 105) } : {}) } } : {}),
  };
}

/** The bank transaction code (required by the schema): issued credit transfer, its return, or a received credit. */
function bankTransactionFamily(entry: BankEntry): { Cd: string; SubFmlyCd: string } {
  if (entry.creditDebit === 'DBIT') return { Cd: 'ICDT', SubFmlyCd: 'DMCT' };
  if (entry.transactions.some((transaction) => transaction.returnReason)) return { Cd: 'ICDT', SubFmlyCd: 'RRTN' };
  return { Cd: 'RCDT', SubFmlyCd: 'DMCT' };
}

/** The bank's charges, taken with the entry (included in its amount), as one debit record. */
function charges(total: string, currency: string): Record<string, unknown> {
  return { TtlChrgsAndTaxAmt: amount(total, currency), Rcrd: { Amt: amount(total, currency), CdtDbtInd: 'DBIT', ChrgInclInd: 'true' } };
}

function amount(value: string, currency: string): Record<string, string> {
  return { '@_Ccy': currency, '#text': value };
}

/** `DateAndDateTime2Choice`: a date-time when the value has a time, else a date. */
function dateChoice(value: string): Record<string, string> {
  return value.includes('T') ? { DtTm: value } : { Dt: value };
}
