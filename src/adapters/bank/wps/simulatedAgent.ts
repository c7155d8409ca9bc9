import { readdir } from 'node:fs/promises';
import { Money, ZERO } from '../../../domain/money/money.js';
import { agentAnswerText } from './agentAnswerFile.js';

/** The simulation's rule: the salary of an employee whose labour-card person id starts with 99 cannot be credited and is refunded. */
const REFUNDED_PERSON_ID_PREFIX = '99';
/** The refund code the simulated agent gives (the bank return's code for a closed account). */
const SIMULATED_REFUND_CODE = 'AC04';

/** The simulated WPS agent's answers to one salary file: an acknowledgement at once, a refund file later when a salary is refunded. */
export interface SimulatedAgentAnswers {
  acknowledgement: string;
  refunds: string | null;
}

/**
 * A salary file read as the agent reads it: a file whose last line is an SCR whose count and total
 * are its EDRs' is acknowledged (ACK), any other is rejected (RJT); the EDRs of person ids starting
 * with 99 are refunded (FDR, their fixed and variable parts).
 */
export function answerSalaryFile(fileName: string, text: string): SimulatedAgentAnswers {
  const lines = text
    .split(/\r?\n/)
    .filter(Boolean)
    .map((line) => line.split(','));
  const edrs = lines.filter((line) => line[0] === 'EDR');
  const scr = lines.at(-1);
  const aed = (amount: string | undefined) => (amount && /^\d+\.\d{2}$/.test(amount) ? new Money(amount) : null);
  const salary = (edr: string[]) => aed(edr[7])?.plus(aed(edr[8]) ?? NaN) ?? new Money(NaN);
  const total = edrs.reduce((sum, edr) => sum.plus(salary(edr)), ZERO);
  const scrTotal = aed(scr?.[7]);
  const valid =
    scr?.[0] === 'SCR' && scr[6] === String(edrs.length).padStart(2, '0') && scrTotal !== null && scrTotal.equals(total) && edrs.length + 1 === lines.length;
  if (!valid)
    return { acknowledgement: agentAnswerText({ answer: 'RJT', salaryFileName: fileName, reason: 'SCR does not match the EDRs', refunds: [] }), refunds: null };
  const refunded = edrs
    .filter((edr) => (edr[1] ?? '').replace(/^0+/, '').startsWith(REFUNDED_PERSON_ID_PREFIX))
    .map((edr) => ({ personId: edr[1]!, amount: salary(edr).toFixed(2), refundCode: SIMULATED_REFUND_CODE }));
  return {
    acknowledgement: agentAnswerText({ answer: 'ACK', salaryFileName: fileName, reason: null, refunds: [] }),
    refunds: refunded.length > 0 ? agentAnswerText({ answer: 'FDR', salaryFileName: fileName, reason: null, refunds: refunded }) : null,
  };
}

/** The salary files waiting in the outbox (`*.SIF`), hidden and temporary files aside. */
export async function salaryFilesIn(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).filter((name) => /\.SIF$/i.test(name) && !name.startsWith('.')).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}
