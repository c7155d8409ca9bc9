// The event of a payroll request of more than 1,000 splits (PayrollRequestItemsOmitted) repeats
// PayrollRequest's fields one by one in the spec (their words stay PayrollRequest's): a field added
// to the request and forgotten in the event, or typed differently there, fails here.
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../reliability/spec.js';

const ITEMS = ['amountSplitDetails', 'transfers'];

describe('PayrollRequestItemsOmitted', () => {
  it('is PayrollRequest without amountSplitDetails and transfers, and with itemsOmitted', async () => {
    const { schemas } = (await loadSpec()).raw.components;
    const full = schemas.PayrollRequest as { properties: Record<string, unknown>; required: string[] };
    const omitted = schemas.PayrollRequestItemsOmitted as { properties: Record<string, unknown>; required: string[]; additionalProperties: unknown };
    // The same schemas; the words (description, example) are PayrollRequest's, not repeated.
    const bare = (schema: unknown) => {
      const { description: _description, example: _example, ...rest } = schema as Record<string, unknown>;
      return rest;
    };
    const kept = Object.fromEntries(
      Object.entries(full.properties)
        .filter(([name]) => !ITEMS.includes(name))
        .map(([name, schema]) => [name, bare(schema)]),
    );
    const { itemsOmitted, ...others } = omitted.properties;
    expect(Object.fromEntries(Object.entries(others).map(([name, schema]) => [name, bare(schema)]))).toEqual(kept);
    expect(itemsOmitted).toMatchObject({ const: true });
    expect([...omitted.required].sort()).toEqual([...full.required.filter((name) => !ITEMS.includes(name)), 'itemsOmitted'].sort());
    expect(omitted.additionalProperties).toBe(false);
  });
});
