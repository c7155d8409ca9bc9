import { describe, expect, it } from 'vitest';
import { type ItemGroupRow, itemSections } from '../../../src/store/itemGroups.js';

/** The groups of a request's items come as rows in no promised order; each names its section and place. */
describe('itemSections', () => {
  const rows: ItemGroupRow[] = [
    { section: 2, seq: 1, json: ',{"t":3}' },
    { section: 1, seq: 0, json: '{"s":1},{"s":2}' },
    { section: 0, seq: 0, json: '{"head":true}' },
    { section: 2, seq: 0, json: '{"t":1},{"t":2}' },
    { section: 1, seq: 1, json: ',{"s":3}' },
  ];

  it('puts each group in its place, whatever the order of the rows, and leaves other rows aside', () => {
    const forward = itemSections(rows);
    expect(forward).toEqual({ splits: ['{"s":1},{"s":2}', ',{"s":3}'], transfers: ['{"t":1},{"t":2}', ',{"t":3}'] });
    expect(itemSections([...rows].reverse())).toEqual(forward);
    expect(JSON.parse(`[${forward.splits.join('')}]`)).toEqual([{ s: 1 }, { s: 2 }, { s: 3 }]);
  });

  it('a request without items has empty sections', () => {
    expect(itemSections([{ section: 0, seq: 0, json: '' }])).toEqual({ splits: [], transfers: [] });
  });

  it('refuses a section with a group missing rather than answer with a hole', () => {
    expect(() => itemSections(rows.filter((row) => !(row.section === 1 && row.seq === 0)))).toThrow(Error);
  });
});
