/**
 * The top level of a PayrollRequest's JSON, written once for every writer of it: the read
 * (usecases/getPayrollRequest.ts), the payroll_request.status_changed event and an operation's
 * stored answer (store/payrollRequestJsonWrites.ts, which receive these texts as parameters). It
 * wraps the request's `head` (its JSON object without returnedAmount, amountSplitDetails and
 * transfers, as store/payrollRequestJson.ts writes it) and returnedAmount (a money rule, computed in
 * TypeScript). The items (each split's and transfer's JSON, kept on its row) go between `opening`
 * and `closing`, separated by `between`.
 */
export interface PayrollRequestTopLevel {
  /** `{"returnedAmount":…,<the head's fields>,"amountSplitDetails":[` */
  opening: string;
  /** `],"transfers":[` */
  between: string;
  /** `]}` */
  closing: string;
  /** `{"returnedAmount":…,<the head's fields>,"itemsOmitted":true}`: the whole object, for an event of a request too big to carry its items. */
  withoutItems: string;
}

export function payrollRequestTopLevel(returnedAmount: string, head: string): PayrollRequestTopLevel {
  const fields = `{"returnedAmount":${JSON.stringify(returnedAmount)},${head.slice(1, -1)}`;
  return { opening: `${fields},"amountSplitDetails":[`, between: '],"transfers":[', closing: ']}', withoutItems: `${fields},"itemsOmitted":true}` };
}
