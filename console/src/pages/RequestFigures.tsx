/**
 * A payroll request's money, told for the stage it is in: the estimate until a quote, the quote
 * (rate, total, what comes back or is added, expiry) before the customer decides, what was
 * debited once accepted, and what the payouts actually paid once they have.
 */
import { type components } from 'payroll-fee-service';
import type { ComponentChildren } from 'preact';
import { isZero, magnitude, sumDecimals } from '../money.js';
import { Amount, Time } from '../ui.js';

type PayrollRequest = components['schemas']['PayrollRequest'];
type Quote = components['schemas']['PayrollQuoteFigures'];

/** Statuses whose payouts have been sent: from here the beneficiaries' figure is what was paid, not a forecast. */
const PAYING: readonly PayrollRequest['status'][] = ['PAYOUT_INITIATED', 'COMPLETED', 'PARTIALLY_COMPLETED'];

/** The two currencies of a request with their minor units, so that every amount is shown at them. */
export function currenciesOf(request: PayrollRequest) {
  const source = request.sourceAccountCurrency.currency;
  const payroll = request.payrollAccountCurrency.currency;
  return {
    source: (value: string | null | undefined) => <Amount value={value} currency={source.currencyCode} decimals={source.decimals} />,
    payroll: (value: string | null | undefined) => <Amount value={value} currency={payroll.currencyCode} decimals={payroll.decimals} />,
    pair: `${source.currencyCode}→${payroll.currencyCode}`,
  };
}

/** What the payouts paid: the sum of the completed payouts' amounts (exact, from their decimal strings). */
function paidToBeneficiaries(request: PayrollRequest): string {
  return sumDecimals(
    request.transfers
      .filter((transfer) => transfer.transferType === 'BANK_TO_BENEFICIARY' && transfer.status === 'COMPLETED')
      .map((transfer) => transfer.amount),
  );
}

function Rows({ rows }: { rows: [string, ComponentChildren][] }) {
  return (
    <dl>
      {rows.map(([term, value]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** What accepting the quote does to the account: a refund, a top-up, or nothing. */
function adjustment(quote: Quote, show: (value: string) => ComponentChildren, accepted: boolean): [string, ComponentChildren] {
  if (isZero(quote.adjustmentAmount)) return [accepted ? 'Adjusted at acceptance' : 'On accepting', 'Nothing more is debited or refunded'];
  const { negative, absolute } = magnitude(quote.adjustmentAmount);
  if (negative) return [accepted ? 'Refunded at acceptance' : 'Comes back to your account on accepting', show(absolute)];
  return [accepted ? 'Added at acceptance' : 'Debited on accepting', show(absolute)];
}

/** The quote waiting for the customer's decision: shown above the Accept button. */
export function QuoteToDecide({ request }: { request: PayrollRequest }) {
  const quote = request.quote;
  if (request.status !== 'QUOTE_PROVIDED' || !quote) return null;
  const money = currenciesOf(request);
  return (
    <section aria-labelledby="quote-heading" class="quote">
      <h2 id="quote-heading">The quote</h2>
      <p>
        The payroll was debited at the estimate. At the quoted rate it costs {money.source(quote.totalAmount)}; accepting settles the difference with your
        account. Accept before the quote expires: after that, an admin gives a new one.
      </p>
      <Rows
        rows={[
          [
            'Quoted rate',
            <>
              <span class="amount">
                {quote.exchangeRate} {money.pair}
              </span>{' '}
              <span class="muted">(estimate {request.estimatedFxRate})</span>
            </>,
          ],
          ['Beneficiaries receive', money.payroll(quote.receivedAmount)],
          [
            'Total at the quote',
            <>
              {money.source(quote.totalAmount)} <span class="muted">(fees {money.source(quote.feeAmount)} included)</span>
            </>,
          ],
          ['Debited at creation', money.source(quote.debitedAmount)],
          adjustment(quote, money.source, false),
          ['Valid until', <Time value={request.quoteExpiresAt} />],
        ]}
      />
    </section>
  );
}

/** The request's figures at its present stage (the quote awaiting a decision is QuoteToDecide's). */
export function RequestFigures({ request }: { request: PayrollRequest }) {
  const money = currenciesOf(request);
  const quote = request.quote;
  const accepted = request.acceptedByCustomerAt !== null && quote !== null;
  const rows: [string, ComponentChildren][] = [];
  if (request.status === 'AWAITING_APPROVAL') rows.push(['Debited on approval', money.source(request.totalAmount)]);
  else if (accepted) rows.push(['Total debited', money.source(request.totalAmount)], adjustment(quote, money.source, true));
  else rows.push(['Debited at creation (the estimate)', money.source(request.totalAmount)]);
  rows.push(['Estimated rate', <span class="amount">{`${request.estimatedFxRate} ${money.pair}`}</span>]);
  if (quote && request.status !== 'QUOTE_PROVIDED')
    rows.push([accepted ? 'Accepted rate' : 'Quoted rate', <span class="amount">{`${quote.exchangeRate} ${money.pair}`}</span>]);
  if (PAYING.includes(request.status) || (request.status === 'FAILED' && request.fxExchange)) {
    const label = request.status === 'PAYOUT_INITIATED' ? 'Paid to beneficiaries so far' : 'Paid to beneficiaries';
    rows.push([label, money.payroll(paidToBeneficiaries(request))]);
  } else if (accepted) rows.push(['Beneficiaries receive (the accepted quote)', money.payroll(quote.receivedAmount)]);
  else if (!quote) rows.push(['Beneficiaries receive (estimate)', money.payroll(request.estimatedReceivedAmount)]);
  if (!isZero(request.returnedAmount)) rows.push(['Returned to your account (failed or returned payouts)', money.source(request.returnedAmount)]);
  return <Rows rows={rows} />;
}
