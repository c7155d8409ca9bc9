/**
 * What the employer's WPS agent answers to a Salary Information File (docs/wps.md), as the inbox
 * reads it: the file accepted (ACK) or rejected (RJT) whole, or the salaries it could not credit
 * refunded (FDR lines, one per salary). Applied once, by the SIF and what each line names.
 */
export interface WpsRefund {
  /** The employee as the EDR named them: the labour-card person id (compared without its padding). */
  personId: string;
  /** AED, as the agent wrote it. */
  amount: string;
  /** The agent's refund code, the return's reason. */
  refundCode: string;
}

export interface WpsAgentAnswer {
  kind: 'wps';
  /** The answer file's own id (a digest of its bytes): the same file dropped twice is the same answer. */
  msgId: string;
  answer: 'ACK' | 'RJT' | 'FDR';
  /** The SIF the answer is about, by its file name. */
  salaryFileName: string;
  /** RJT: the agent's reason code and text. */
  reason: string | null;
  refunds: WpsRefund[];
}
