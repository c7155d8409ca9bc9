/** The rows of a world's reference data, as src/store/reference/worldRows.ts inserts them. */
import { randomUUID } from 'node:crypto';
import type { WorldTableRows } from '../../store/reference/worldRows.js';
import type { World, WorldFeeSchedule } from '../types.js';
import { columns } from './columns.js';

type ReferenceTable =
  | 'currencies'
  | 'customers'
  | 'users'
  | 'accounts'
  | 'beneficiaries'
  | 'exchange_rates'
  | 'currency_pegs'
  | 'bank_fees'
  | 'bank_calendars'
  | 'processor_fee_schedules'
  | 'payout_fee_schedules'
  | 'internal_payout_fee_rules';

export function referenceRows(world: World): Pick<WorldTableRows, ReferenceTable> {
  const { fees } = world;
  return {
    currencies: world.currencies.map((c) => ({ ...columns(c, ['code', 'name', 'symbol', 'decimals']), id: c.id ?? randomUUID() })),
    customers: world.customers.map((c) => ({
      ...columns(c, ['id', 'firstName', 'lastName', 'companyLegalName', 'spreadBips', 'wpsEstablishmentId', 'wpsAgentRoutingCode']),
      requires_payroll_approval: c.requiresPayrollApproval ?? false,
    })),
    users: world.users.map((u) => ({ ...columns(u, ['id', 'firstName', 'lastName', 'email', 'role', 'customerId']), permissions: [...(u.permissions ?? [])] })),
    accounts: world.accounts.map((a) => columns(a, ['id', 'accountProvider', 'customerId', 'iban', 'bic', 'legalName'])),
    beneficiaries: world.beneficiaries.map((b) => ({
      ...columns(b, ['id', 'customerId', 'firstName', 'lastName', 'displayName', 'type', 'nationality', 'bankName']),
      ...columns(b, ['iban', 'accountNumber', 'reference', 'companyName', 'bankCode', 'swiftBic', 'email', 'labourCardPersonId', 'wpsRoutingCode']),
      active: b.active ?? true,
    })),
    exchange_rates: world.rates.map((r) => ({ from_code: r.from, to_code: r.to, rate: r.rate })),
    currency_pegs: (world.pegs ?? []).map((p) => ({ currency_code: p.currency, anchor_code: p.anchor, rate: p.rate })),
    bank_calendars: (world.calendars ?? []).map((c) => ({
      currency_code: c.currency,
      country: c.country ?? null,
      country_declared: c.country !== undefined,
      time_zone: c.timeZone ?? null,
      weekend: c.weekend ? [...c.weekend] : null,
      cut_off: c.cutOff ?? null,
      added_holidays: [...(c.addedHolidays ?? [])],
      removed_holidays: [...(c.removedHolidays ?? [])],
    })),
    bank_fees: Object.entries(fees.bankFeePerBeneficiary).map(([code, fee]) => ({ currency_code: code, per_beneficiary: fee })),
    processor_fee_schedules: fees.processor.map(scheduleRow),
    payout_fee_schedules: fees.payout.map((s) => ({ ...scheduleRow(s), settlement_days: s.settlementDays })),
    internal_payout_fee_rules: (fees.internalPayout ?? []).map((r) => ({
      ...columns(r, ['customerId', 'fixed']),
      currency_code: r.currency,
      percent_bps: String(r.percentBps),
    })),
  };
}

function scheduleRow(s: WorldFeeSchedule): WorldTableRows['processor_fee_schedules'][number] {
  return {
    ...columns(s, ['accountProvider', 'fixed', 'min', 'max']),
    currency_code: s.currency,
    percent_bps: String(s.percentBps),
  };
}
