import type { components } from '../../../generated/api.js';
import { notFound } from '../../domain/errors.js';
import { findApprovers, updateCustomerSettings as storeSettings } from '../../store/payroll/payrollApproval.js';
import type { UseCaseDeps } from '../deps.js';
import { type Principal, requireAdmin } from '../access/principal.js';

type CustomerSettings = components['schemas']['CustomerSettings'];

/**
 * Admin: change a customer's settings (four-eyes approval of its payroll requests). Requests
 * already created keep the rule they were created under. Answers the settings as stored, with the
 * customer's approvers.
 */
export async function updateCustomerSettings(
  deps: UseCaseDeps,
  caller: Principal,
  customerId: string,
  body: components['schemas']['UpdateCustomerSettingsRequest'],
): Promise<CustomerSettings> {
  requireAdmin(caller);
  return deps.db.transaction(async (tx) => {
    const settings = await storeSettings(tx, customerId, { requiresPayrollApproval: body.requiresPayrollApproval ?? null });
    if (!settings) throw notFound(`Customer ${customerId} not found`);
    return { ...settings, approvers: await findApprovers(tx, customerId, null) };
  });
}
