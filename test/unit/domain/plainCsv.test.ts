import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitPlainCsv } from '../../../src/domain/payroll/plainCsv.js';

/** csv-parse with the payroll file's options: each record and the line it ends on. */
function csvParse(text: string, delimiter: string): Array<{ record: string[]; line: number }> {
  const records = parse(text, { bom: true, delimiter, trim: true, skip_empty_lines: true, relax_column_count: true, info: true }) as unknown as Array<{
    record: string[];
    info: { lines: number };
  }>;
  return records.map(({ record, info }) => ({ record, line: info.lines }));
}

// Whitespace csv-parse and String.prototype.trim both trim, the no-break and ideographic spaces too.
const WHITESPACE = [' ', '\t', '\u00A0', '\u3000', '\u2028', '\uFEFF', '\f', '\v'];

describe('a CSV file without quotes, read by splitting', () => {
  it('reads any such file exactly as csv-parse does: fields, trimming, blank lines, BOM and line numbers', () => {
    const character = fc.constantFrom('a', 'Z', '7', '.', '-', ',', ';', ...WHITESPACE);
    const line = fc.array(character, { maxLength: 12 }).map((characters) => characters.join(''));
    const file = fc.record({
      lines: fc.array(line, { maxLength: 8 }),
      lineBreak: fc.constantFrom('\n', '\r\n'),
      delimiter: fc.constantFrom(',', ';'),
      bom: fc.boolean(),
      finalBreak: fc.boolean(),
    });
    fc.assert(
      fc.property(file, ({ lines, lineBreak, delimiter, bom, finalBreak }) => {
        const text = `${bom ? '\uFEFF' : ''}${lines.join(lineBreak)}${finalBreak && lines.length > 0 ? lineBreak : ''}`;
        expect(splitPlainCsv(text, delimiter)).toEqual(csvParse(text, delimiter));
      }),
      { numRuns: 2000 },
    );
  });

  it('leaves to csv-parse a file with a quote, a lone CR, or CRLF and LF mixed', () => {
    expect(splitPlainCsv('a,b\n"c",d\n', ',')).toBeNull();
    expect(splitPlainCsv('a,b\rc,d', ',')).toBeNull();
    expect(splitPlainCsv('a,b\r\nc,d\ne,f', ',')).toBeNull();
    expect(splitPlainCsv('a,b\nc,d\r\n', ',')).toBeNull();
  });

  it('numbers a record by its line, blank lines counted', () => {
    expect(splitPlainCsv('\uFEFFid,amount\r\n\r\n  \r\nR-1 , 2.50\r\n', ',')).toEqual([
      { record: ['id', 'amount'], line: 1 },
      { record: ['R-1', '2.50'], line: 4 },
    ]);
  });
});
