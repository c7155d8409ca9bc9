import { Decimal } from 'decimal.js';
import type {
  BankAccountReport,
  BankBalance,
  BankEntry,
  BankReturnReason,
  BankToCustomerMessage,
  BankTransaction,
  CreditDebit,
} from '../../../domain/bank/bankBooks.js';
import { child, children, text } from './xml.js';
import { XmlSyntaxError, readXmlTree } from './xmlStream.js';

/** A file that is not a camt.053.001.08 or camt.054.001.08 message we can read. */
export class CamtError extends Error {}

/** An entry already read into its fields, where the tree had its element. */
class ReadEntry {
  constructor(readonly entry: BankEntry) {}
}

/**
 * Reads a camt.053.001.08 statement or camt.054.001.08 notification (validate it against its XSD
 * first: this reads only what it uses). Amounts stay the decimal strings the file wrote.
 *
 * A payroll day's statement holds one entry per payout (100,000 and more): the document is read by
 * a streaming parser, each `Ntry` turned into a `BankEntry` as soon as it closes, so only the
 * entries' fields are ever held, never the whole document's tree. Give it the file's bytes rather
 * than a string: they are decoded a megabyte at a time.
 */
export function parseBankToCustomer(xml: string | Uint8Array): BankToCustomerMessage {
  let tree: Record<string, unknown>;
  try {
    tree = readXmlTree(xml, (name, value) => (name === 'Ntry' ? new ReadEntry(readEntry(value)) : undefined));
  } catch (error) {
    throw error instanceof XmlSyntaxError ? new CamtError(error.message) : error;
  }
  const document = child(tree, 'Document');
  const statement = child(document, 'BkToCstmrStmt');
  const message = statement ?? child(document, 'BkToCstmrDbtCdtNtfctn');
  if (!message) throw new CamtError('Not a bank-to-customer statement or notification (no Document/BkToCstmrStmt or Document/BkToCstmrDbtCdtNtfctn)');
  const header = child(message, 'GrpHdr');
  const msgId = text(header, 'MsgId');
  const createdAt = text(header, 'CreDtTm');
  if (!msgId || !createdAt) throw new CamtError('The message has no GrpHdr/MsgId or GrpHdr/CreDtTm');
  const reports = children(message, statement ? 'Stmt' : 'Ntfctn').map(readReport);
  return { kind: statement ? 'camt.053' : 'camt.054', msgId, createdAt, reports };
}

function readReport(node: unknown): BankAccountReport {
  const account = child(node, 'Acct');
  const id = child(account, 'Id');
  const period = child(node, 'FrToDt');
  const from = text(period, 'FrDtTm');
  const to = text(period, 'ToDtTm');
  return {
    reportId: required(text(node, 'Id'), 'Stmt/Id or Ntfctn/Id'),
    account: { iban: text(id, 'IBAN') ?? null, otherId: text(child(id, 'Othr'), 'Id') ?? null, currency: text(account, 'Ccy') ?? null },
    period: from && to ? { from, to } : null,
    balances: children(node, 'Bal').map(readBalance),
    entries: children(node, 'Ntry').map((entry) => (entry instanceof ReadEntry ? entry.entry : readEntry(entry))),
  };
}

function readBalance(node: unknown): BankBalance {
  const type = child(child(node, 'Tp'), 'CdOrPrtry');
  const [amount, currency] = amountOf(node, 'Amt');
  return {
    type: required(text(type, 'Cd') ?? text(type, 'Prtry'), 'Bal/Tp/CdOrPrtry'),
    amount: required(amount, 'Bal/Amt'),
    currency: required(currency, 'Bal/Amt/@Ccy'),
    creditDebit: creditDebit(text(node, 'CdtDbtInd')) ?? fail('Bal/CdtDbtInd'),
    date: required(dateOf(node, 'Dt'), 'Bal/Dt'),
  };
}

function readEntry(node: unknown): BankEntry {
  const [amount, currency] = amountOf(node, 'Amt');
  const status = child(node, 'Sts');
  const reversal = text(node, 'RvslInd');
  return {
    entryReference: text(node, 'NtryRef') ?? null,
    accountServicerReference: text(node, 'AcctSvcrRef') ?? null,
    amount: required(amount, 'Ntry/Amt'),
    currency: required(currency, 'Ntry/Amt/@Ccy'),
    creditDebit: creditDebit(text(node, 'CdtDbtInd')) ?? fail('Ntry/CdtDbtInd'),
    reversal: reversal === 'true' || reversal === '1',
    status: required(text(status, 'Cd') ?? text(status, 'Prtry'), 'Ntry/Sts'),
    bookingDate: dateOf(node, 'BookgDt') ?? null,
    valueDate: dateOf(node, 'ValDt') ?? null,
    charges: chargesOf(child(node, 'Chrgs')),
    transactions: children(node, 'NtryDtls').flatMap((details) => children(details, 'TxDtls').map(readTransaction)),
  };
}

function readTransaction(node: unknown): BankTransaction {
  const refs = child(node, 'Refs');
  const detailed = amountOf(child(child(node, 'AmtDtls'), 'TxAmt'), 'Amt');
  const [amount, currency] = detailed[0] !== undefined ? detailed : amountOf(node, 'Amt');
  return {
    endToEndId: text(refs, 'EndToEndId') ?? null,
    accountServicerReference: text(refs, 'AcctSvcrRef') ?? null,
    amount: amount ?? null,
    currency: currency ?? null,
    creditDebit: creditDebit(text(node, 'CdtDbtInd')) ?? null,
    returnReason: returnReasonOf(child(node, 'RtrInf')),
    charges: chargesOf(child(node, 'Chrgs')),
  };
}

function returnReasonOf(node: Record<string, unknown> | undefined): BankReturnReason | null {
  if (!node) return null;
  const reason = child(node, 'Rsn');
  const lines = children(node, 'AddtlInf').filter((line): line is string => typeof line === 'string');
  return { code: text(reason, 'Cd') ?? text(reason, 'Prtry') ?? null, text: lines.length > 0 ? lines.join(' ') : null };
}

/** `TtlChrgsAndTaxAmt`, else the records' amounts summed (a CRDT record, a refunded charge, counts against). */
function chargesOf(node: Record<string, unknown> | undefined): string | null {
  if (!node) return null;
  const total = amountOf(node, 'TtlChrgsAndTaxAmt')[0];
  if (total !== undefined) return total;
  const records = children(node, 'Rcrd');
  if (records.length === 0) return null;
  const sum = records.reduce<Decimal>((acc, record) => {
    const value = new Decimal(required(amountOf(record, 'Amt')[0], 'Chrgs/Rcrd/Amt'));
    return text(record, 'CdtDbtInd') === 'CRDT' ? acc.minus(value) : acc.plus(value);
  }, new Decimal(0));
  return sum.toFixed();
}

/** An `ActiveOrHistoricCurrencyAndAmount` element: its text and its `Ccy` attribute. */
function amountOf(node: unknown, name: string): [string | undefined, string | undefined] {
  const element = typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[name] : undefined;
  if (typeof element !== 'object' || element === null) return [typeof element === 'string' ? element : undefined, undefined];
  const record = element as Record<string, unknown>;
  return [typeof record['#text'] === 'string' ? record['#text'] : undefined, typeof record['@_Ccy'] === 'string' ? record['@_Ccy'] : undefined];
}

/** A `DateAndDateTime2Choice`: `Dt` or `DtTm`. */
function dateOf(node: unknown, name: string): string | undefined {
  const choice = child(node, name);
  return text(choice, 'Dt') ?? text(choice, 'DtTm');
}

function creditDebit(value: string | undefined): CreditDebit | undefined {
  return value === 'CRDT' || value === 'DBIT' ? value : undefined;
}

function required(value: string | undefined, what: string): string {
  return value ?? fail(what);
}

function fail(what: string): never {
  throw new CamtError(`The message has no ${what}`);
}
