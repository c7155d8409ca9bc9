import type { components } from '../../../generated/api.js';
import type { PaySchedule } from '../../domain/calendar/paySchedule.js';

/** The one writer of a PaySchedule: on an estimate and on a request alike. */
export function toPaySchedule(schedule: Omit<PaySchedule, 'executeFrom'>): components['schemas']['PaySchedule'] {
  return {
    payDate: schedule.payDate,
    timeZone: schedule.timeZone,
    approveBy: schedule.approveBy.toISOString(),
    quoteBy: schedule.quoteBy.toISOString(),
    acceptBy: schedule.acceptBy.toISOString(),
    fundBy: schedule.fundBy.toISOString(),
    instructBy: schedule.instructBy.toISOString(),
  };
}
