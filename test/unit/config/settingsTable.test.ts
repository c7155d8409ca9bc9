// docs/operations.md's settings table is written from the declaration of every setting
// (src/config/settings.ts): a default or a meaning changed in one place and not the other fails here.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { END, OPERATIONS, START, withSettings } from '../../../scripts/docs-settings.js';
import { SETTINGS } from '../../../src/config/settings.js';
import { DEFAULT_FX_RECORD_TOLERANCE_BPS, DEFAULT_QUOTE_TOLERANCE_BPS } from '../../../src/domain/payroll/settlement.js';
import { inRepo } from '../../support/build.js';

/** The rows of the first table after `heading` in a guide: the variable and its Default cell. */
function tableAfter(guide: string, heading: string): Map<string, string> {
  const lines = guide.slice(guide.indexOf(heading)).split('\n');
  const first = lines.findIndex((line) => line.startsWith('|'));
  const rows = lines.slice(
    first + 2,
    lines.findIndex((line, index) => index > first && !line.startsWith('|')),
  );
  return new Map(rows.map((row) => row.split(' | ')).map(([name, shown]) => [name!.replace(/^\| `|`$/g, ''), shown!]));
}

describe("docs/operations.md's settings table", () => {
  const guide = readFileSync(OPERATIONS, 'utf8');

  it('is the table npm run -s docs:settings writes from src/config/settings.ts', () => {
    expect(guide).toContain(START);
    expect(guide).toContain(END);
    expect(guide, 'run npm run -s docs:settings').toBe(withSettings(guide));
  });

  it('names every declared setting once', () => {
    const table = tableAfter(guide, START);
    expect([...table.keys()]).toEqual(Object.keys(SETTINGS));
  });

  it("shows the domain's own default where an unset tolerance leaves it to the domain", () => {
    expect(SETTINGS.QUOTE_TOLERANCE_BPS.shownDefault).toBe(`\`${DEFAULT_QUOTE_TOLERANCE_BPS}\``);
    expect(SETTINGS.FX_RECORD_TOLERANCE_BPS.shownDefault).toBe(`\`${DEFAULT_FX_RECORD_TOLERANCE_BPS}\``);
  });
});

describe("docs/security.md's settings table", () => {
  it('names declared settings, with the defaults their declaration gives', () => {
    const table = tableAfter(readFileSync(inRepo('docs', 'security.md'), 'utf8'), '## Settings');
    expect(table.size).toBeGreaterThan(0);
    for (const [name, shown] of table) {
      expect(Object.keys(SETTINGS), name).toContain(name);
      expect(shown, name).toBe(SETTINGS[name as keyof typeof SETTINGS].shownDefault);
    }
  });
});
