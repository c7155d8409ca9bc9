import { describe, expect, it } from 'vitest';
import { type ScheduledRequestState, dueDeadlineNotice } from '../../../../src/domain/calendar/deadlines.js';

const deadlines = {
  approveBy: new Date('2026-11-30T11:00:00Z'),
  quoteBy: new Date('2026-12-04T11:00:00Z'),
  acceptBy: new Date('2026-12-07T11:00:00Z'),
  fundBy: new Date('2026-12-07T11:00:00Z'),
};
const DAY = 86_400_000;
const state = (status: ScheduledRequestState['status'], noticed: string[] = []): ScheduledRequestState => ({ status, deadlines, noticed });

describe('the deadline a request waits on', () => {
  it('is the one of its status: approve-by, quote-by, accept-by, fund-by', () => {
    const at = new Date('2026-12-20T00:00:00Z');
    expect(dueDeadlineNotice(state('AWAITING_APPROVAL'), at, DAY)?.deadline).toBe('approveBy');
    expect(dueDeadlineNotice(state('PENDING'), at, DAY)?.deadline).toBe('quoteBy');
    expect(dueDeadlineNotice(state('QUOTE_PROVIDED'), at, DAY)?.deadline).toBe('acceptBy');
    expect(dueDeadlineNotice(state('QUOTE_ACCEPTED'), at, DAY)?.deadline).toBe('fundBy');
    expect(dueDeadlineNotice(state('EXECUTING'), at, DAY)).toBeNull();
    expect(dueDeadlineNotice(state('CANCELLED'), at, DAY)).toBeNull();
  });

  it('is announced approaching within the warning, missed once passed, each once', () => {
    expect(dueDeadlineNotice(state('PENDING'), new Date('2026-12-03T10:59:59Z'), DAY)).toBeNull();
    expect(dueDeadlineNotice(state('PENDING'), new Date('2026-12-03T11:00:00Z'), DAY)).toMatchObject({ kind: 'APPROACHING', dueAt: deadlines.quoteBy });
    expect(dueDeadlineNotice(state('PENDING', ['quoteBy:APPROACHING']), new Date('2026-12-04T10:00:00Z'), DAY)).toBeNull();
    expect(dueDeadlineNotice(state('PENDING', ['quoteBy:APPROACHING']), deadlines.quoteBy, DAY)).toMatchObject({ kind: 'MISSED' });
    expect(dueDeadlineNotice(state('PENDING', ['quoteBy:APPROACHING', 'quoteBy:MISSED']), new Date('2026-12-09T00:00:00Z'), DAY)).toBeNull();
    // A worker away through the warning: only the missed one.
    expect(dueDeadlineNotice(state('QUOTE_PROVIDED'), new Date('2026-12-08T00:00:00Z'), DAY)).toMatchObject({ deadline: 'acceptBy', kind: 'MISSED' });
  });
});
