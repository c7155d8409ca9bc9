import { createHash } from 'node:crypto';
import type { WpsAgentAnswer, WpsRefund } from '../../../domain/bank/wpsAnswers.js';

/**
 * The WPS agent's answer files in the bank inbox (`*.wps`, docs/wps.md): comma-separated lines, one
 * kind of record per file, each naming the SIF it answers.
 *
 *     ACK,<SIF name>
 *     RJT,<SIF name>,<reason code>,<reason text>
 *     FDR,<SIF name>,<person id>,<amount>,<refund code>      (one line per refunded salary)
 *
 * The agents' own answers differ in layout (an acknowledgement e-mail, a refund report); the
 * transport maps them to these lines, which are also what the bank simulator writes.
 */

/** Why an answer file cannot be read: the inbox moves it to rejected/. */
export class AgentAnswerError extends Error {}

const SIF_NAME = /^\d{13}\d{12}\.SIF$/i;
const AMOUNT = /^\d{1,15}(\.\d{1,2})?$/;

export function parseAgentAnswer(bytes: Uint8Array): WpsAgentAnswer {
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes).replace(/^\uFEFF/, '');
  const lines = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => line.split(',').map((cell) => cell.trim()));
  const first = lines[0];
  if (!first) throw new AgentAnswerError('the answer file is empty');
  const answer = first[0]?.toUpperCase();
  if (!isAnswer(answer)) throw new AgentAnswerError(`${first[0]} is not an answer of a WPS agent (ACK, RJT or FDR)`);
  const salaryFileName = first[1] ?? '';
  if (!SIF_NAME.test(salaryFileName)) throw new AgentAnswerError(`${salaryFileName || 'nothing'} is not the name of a salary file`);
  if (lines.some((line) => line[0]?.toUpperCase() !== answer || line[1] !== salaryFileName))
    throw new AgentAnswerError('every line of an answer file must be of one kind and name one salary file');
  const msgId = `WPS${createHash('sha256').update(bytes).digest('hex').slice(0, 32)}`;
  const base = { kind: 'wps' as const, msgId, answer, salaryFileName };
  if (answer === 'ACK') return { ...base, reason: null, refunds: [] };
  if (answer === 'RJT') return { ...base, reason: [first[2], first.slice(3).join(' ')].filter(Boolean).join(' ') || 'Rejected by the agent', refunds: [] };
  return { ...base, reason: null, refunds: lines.map(refundOf) };
}

const ANSWERS = ['ACK', 'RJT', 'FDR'] as const;
const isAnswer = (value: string | undefined): value is WpsAgentAnswer['answer'] => ANSWERS.some((answer) => answer === value);

function refundOf(line: string[]): WpsRefund {
  const [, , personId = '', amount = '', refundCode = ''] = line;
  if (!/^\d{1,20}$/.test(personId)) throw new AgentAnswerError(`${personId || 'nothing'} is not a labour-card person id`);
  if (!AMOUNT.test(amount)) throw new AgentAnswerError(`${amount || 'nothing'} is not an amount in AED`);
  if (!/^[A-Za-z0-9]{1,10}$/.test(refundCode)) throw new AgentAnswerError(`${refundCode || 'nothing'} is not a refund code`);
  return { personId, amount, refundCode: refundCode.toUpperCase() };
}

/** An answer file's text, as the simulator writes it. */
export function agentAnswerText(answer: Pick<WpsAgentAnswer, 'answer' | 'salaryFileName' | 'reason' | 'refunds'>): string {
  if (answer.answer === 'ACK') return `ACK,${answer.salaryFileName}\r\n`;
  if (answer.answer === 'RJT') return `RJT,${answer.salaryFileName},${(answer.reason ?? 'Rejected').replace(/,/g, ' ')}\r\n`;
  return answer.refunds.map((refund) => `FDR,${answer.salaryFileName},${refund.personId},${refund.amount},${refund.refundCode}\r\n`).join('');
}
