// The event of a payroll request of more than 1,000 splits (PayrollRequestItemsOmitted) repeats
// PayrollRequest's fields one by one in the spec: a field added to the request and forgotten in
// the event, or told differently there, fails here.
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../reliability/spec.js';

const ITEMS = ['amountSplitDetails', 'transfers'];

describe('PayrollRequestItemsOmitted', () => {
  it('is PayrollRequest without amountSplitDetails and transfers, and with itemsOmitted', async () => {
    const { schemas } = (await loadSpec()).raw.components;
    const full = schemas.PayrollRequest as { properties: Record<string, unknown>; required: string[] };
    const omitted = schemas.PayrollRequestItemsOmitted as { properties: Record<string, unknown>; required: string[]; additionalProperties: unknown };
    const kept = Object.fromEntries(Object.entries(full.properties).filter(([name]) => !ITEMS.includes(name)));
    expect(omitted.properties).toEqual({ ...kept, itemsOmitted: expect.objectContaining({ const: true }) });
    expect([...omitted.required].sort()).toEqual([...full.required.filter((name) => !ITEMS.includes(name)), 'itemsOmitted'].sort());
    expect(omitted.additionalProperties).toBe(false);
  });
});
