import type { components } from '../../../generated/api.js';
import type { FxExchangeRecord } from '../../store/payroll/payrollRequests.js';

/** The request's FX record as its `fxExchange` shows it. */
export function toFxExchange(fx: FxExchangeRecord): components['schemas']['FxExchange'] {
  return {
    id: fx.id,
    payrollRequestId: fx.payrollRequestId,
    fromCurrencyCode: fx.fromCurrencyCode,
    toCurrencyCode: fx.toCurrencyCode,
    fromAmount: fx.fromAmount,
    toAmount: fx.toAmount,
    exchangeRate: fx.exchangeRate,
    payoutAmount: fx.payoutAmount,
    fxResultAmount: fx.fxResultAmount,
    feeDetails: { id: fx.feeId, amount: fx.feeAmount, finalInternalFee: fx.finalInternalFee },
    recordedByUserId: fx.recordedByUserId,
    recordedByUser: { id: fx.recordedByUserId, firstName: fx.recordedByFirstName, lastName: fx.recordedByLastName, email: fx.recordedByEmail },
    recordedAt: fx.recordedAt.toISOString(),
    createdAt: fx.createdAt.toISOString(),
  };
}
