import { PAIN_001_MESSAGE_NAME } from './pain001.js';
import { PAIN_002_NAMESPACE } from './pain002.js';
import { maxText } from './text.js';
import { buildXml } from './xml.js';

/** A status and its reason, as the bank writes it. */
export interface StatusToWrite {
  code: string;
  reasonCode?: string;
  additionalInfo?: string;
}

export interface Pain002Content {
  msgId: string;
  createdAt: Date;
  originalMsgId: string;
  originalNbOfTxs?: string;
  originalCtrlSum?: string;
  group?: StatusToWrite;
  /** One PmtInf answered, with the status of each of its transactions (absent: a group-level answer only). */
  paymentInfo?: { originalPmtInfId: string; status?: StatusToWrite; transactions: { endToEndId: string; status: StatusToWrite }[] };
}

/** A pain.002.001.11 customer payment status report (what a bank, or our simulator, answers to a pain.001). */
export function buildPain002(content: Pain002Content): string {
  const info = content.paymentInfo;
  return buildXml({
    Document: {
      '@_xmlns': PAIN_002_NAMESPACE,
      CstmrPmtStsRpt: {
        GrpHdr: { MsgId: content.msgId, CreDtTm: content.createdAt.toISOString().replace(/\.\d{3}Z$/, 'Z') },
        OrgnlGrpInfAndSts: {
          OrgnlMsgId: maxText(content.originalMsgId, 35) ?? 'UNKNOWN',
          OrgnlMsgNmId: PAIN_001_MESSAGE_NAME,
          OrgnlNbOfTxs: content.originalNbOfTxs,
          OrgnlCtrlSum: content.originalCtrlSum,
          ...statusElements('GrpSts', content.group),
        },
        ...(info
          ? {
              OrgnlPmtInfAndSts: {
                OrgnlPmtInfId: info.originalPmtInfId,
                ...statusElements('PmtInfSts', info.status),
                TxInfAndSts: info.transactions.map((transaction) => ({
                  OrgnlEndToEndId: transaction.endToEndId,
                  ...statusElements('TxSts', transaction.status),
                })),
              },
            }
          : {}),
      },
    },
  });
}

function statusElements(element: string, status: StatusToWrite | undefined): Record<string, unknown> {
  if (!status) return {};
  const reason =
    status.reasonCode || status.additionalInfo
      ? { Rsn: status.reasonCode ? { Cd: status.reasonCode } : undefined, AddtlInf: maxText(status.additionalInfo, 105) }
      : undefined;
  return { [element]: status.code, ...(reason ? { StsRsnInf: reason } : {}) };
}
