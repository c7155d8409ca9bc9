import { Decimal } from 'decimal.js';
import type { PayoutBatch, PayoutBatchItem } from '../../../domain/payouts/payoutBatch.js';
import { compactUuid, maxText } from './text.js';
import { buildXml } from './xml.js';

const PAIN_001_NAMESPACE = 'urn:iso:std:iso:20022:tech:xsd:pain.001.001.10';
export const PAIN_001_MESSAGE_NAME = 'pain.001.001.10';

/** BICFIDec2014Identifier, the schema's own pattern (stricter than "8 or 11 letters and digits"). */
const BIC = /^[A-Z0-9]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/;

/** Why a batch cannot be written as a pain.001 (the debtor account lacks its IBAN, a currency is not ISO 4217…). */
export class Pain001Error extends Error {}

export interface Pain001Options {
  /** GrpHdr/CreDtTm. */
  createdAt: Date;
  /** GrpHdr/InitgPty/Nm: who sends the file (the platform). */
  initiatingParty: string;
}

/** The file's MsgId, derived from the batch id alone: the same batch always has the same file name. */
export function messageIdOf(batchId: string): string {
  return compactUuid(batchId);
}

/** A payout's EndToEndId (its transfer id, compact): what the bank's status report names it by. */
export function endToEndIdOf(transferId: string): string {
  return compactUuid(transferId);
}

/** The batch's payouts counted and summed as GrpHdr's NbOfTxs and CtrlSum. */
export function controlFigures(items: readonly Pick<PayoutBatchItem, 'amount'>[]): { count: number; sum: string } {
  const sum = items.reduce((total, item) => total.plus(item.amount), new Decimal(0));
  return { count: items.length, sum: sum.toFixed() };
}

/**
 * One batch as one pain.001.001.10 document: a group header, one payment information block with the
 * partner-bank account as debtor, and one credit transfer per payout. Built as an object tree and
 * serialized by fast-xml-parser, which escapes every text; key order is the schema's element order.
 */
export function buildPain001(batch: PayoutBatch, options: Pain001Options): { msgId: string; xml: string } {
  if (batch.items.length === 0) throw new Pain001Error(`Batch ${batch.batchId} has no payouts`);
  if (!/^[A-Z]{3}$/.test(batch.currencyCode)) throw new Pain001Error(`${batch.currencyCode} is not an ISO 4217 currency code; a bank file cannot carry it`);
  const { iban, bic } = batch.debtor;
  if (!iban || !bic) throw new Pain001Error(`The paying account ${batch.debtor.accountCurrencyId} has no IBAN and BIC in the world file`);
  if (!BIC.test(bic.toUpperCase())) throw new Pain001Error(`The paying account's BIC ${bic} is not a valid BIC`);
  const msgId = messageIdOf(batch.batchId);
  const figures = controlFigures(batch.items);
  const document = {
    Document: {
      '@_xmlns': PAIN_001_NAMESPACE,
      CstmrCdtTrfInitn: {
        GrpHdr: {
          MsgId: msgId,
          CreDtTm: isoDateTime(options.createdAt),
          NbOfTxs: String(figures.count),
          CtrlSum: figures.sum,
          InitgPty: { Nm: maxText(options.initiatingParty, 140) },
        },
        PmtInf: {
          PmtInfId: msgId,
          PmtMtd: 'TRF',
          NbOfTxs: String(figures.count),
          CtrlSum: figures.sum,
          // Salaries: the category purpose lets the bank book them as payroll (and keep them off the debtor's statement detail).
          ...(batch.payrollRequestId ? { PmtTpInf: { CtgyPurp: { Cd: 'SALA' } } } : {}),
          ReqdExctnDt: { Dt: batch.requestedExecutionDate },
          Dbtr: { Nm: maxText(batch.debtor.name, 140) },
          DbtrAcct: { Id: { IBAN: iban.replace(/\s+/g, '').toUpperCase() }, Ccy: batch.currencyCode },
          DbtrAgt: { FinInstnId: { BICFI: bic.toUpperCase() } },
          ChrgBr: 'SLEV',
          CdtTrfTxInf: batch.items.map((item) => creditTransfer(item, batch.currencyCode)),
        },
      },
    },
  };
  return { msgId, xml: buildXml(document) };
}

function creditTransfer(item: PayoutBatchItem, currencyCode: string) {
  const { creditor } = item;
  const iban = creditor.iban?.replace(/\s+/g, '').toUpperCase();
  const account = iban ? { IBAN: iban } : creditor.accountNumber ? { Othr: { Id: maxText(creditor.accountNumber, 34) } } : undefined;
  // A BIC the schema would refuse is left out: the bank name still identifies the creditor's bank.
  const bic = creditor.bic?.toUpperCase();
  const agent = { BICFI: bic && BIC.test(bic) ? bic : undefined, Nm: maxText(creditor.bankName, 140) };
  const purpose = purposeOf(item.purposeCode);
  const reference = maxText(item.beneficiaryReference, 140);
  return {
    PmtId: { EndToEndId: endToEndIdOf(item.transferId) },
    Amt: { InstdAmt: { '@_Ccy': currencyCode, '#text': item.amount } },
    ...(agent.BICFI || agent.Nm ? { CdtrAgt: { FinInstnId: agent } } : {}),
    Cdtr: { Nm: maxText(creditor.name, 140) },
    ...(account ? { CdtrAcct: { Id: account } } : {}),
    ...(purpose ? { Purp: purpose } : {}),
    ...(reference ? { RmtInf: { Ustrd: reference } } : {}),
  };
}

/**
 * The API's purpose codes that have an ISO 20022 ExternalPurpose1Code (docs/bank-files.md): a bank
 * reads `Cd` against that list, so salary is `SALA`, never the API's `SAL`.
 */
const ISO_PURPOSE: Readonly<Record<string, string>> = { SAL: 'SALA', PEN: 'PENS' };

/** `Purp`: the ISO code where the API's code has one, else the code as the bank's own (`Prtry`). */
function purposeOf(code: string | null): { Cd: string } | { Prtry: string } | undefined {
  if (!code) return undefined;
  const iso = ISO_PURPOSE[code];
  return iso ? { Cd: iso } : { Prtry: maxText(code, 35)! };
}

/** xs:dateTime in UTC, to the second. */
function isoDateTime(at: Date): string {
  return at.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
