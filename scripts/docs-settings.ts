/**
 * npm run -s docs:settings
 *
 * Rewrites the settings table of docs/operations.md, between its two markers, from the declaration
 * of every setting (src/config/settings.ts): the default and the meaning an operator reads are the
 * ones the service applies. test/unit/config/settingsTable.test.ts fails while the guide says anything else.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SETTINGS } from '../src/config/settings.js';

export const OPERATIONS = fileURLToPath(new URL('../docs/operations.md', import.meta.url));
export const START = '<!-- settings: written by npm run -s docs:settings from src/config/settings.ts; do not edit by hand -->';
export const END = '<!-- /settings -->';

/** One row per setting, in the declaration's order. */
export function settingsTable(): string {
  const rows = Object.values(SETTINGS).map(({ name, shownDefault, doc }) => {
    for (const cell of [shownDefault, doc]) if (/[|\n]/.test(cell)) throw new Error(`${name}: a table cell cannot hold "|" or a line break: ${cell}`);
    return `| \`${name}\` | ${shownDefault} | ${doc} |`;
  });
  return ['| Variable | Default | Meaning |', '|---|---|---|', ...rows].join('\n');
}

/** `guide` with the text between the markers replaced by the table; throws when a marker is missing. */
export function withSettings(guide: string): string {
  const start = guide.indexOf(START);
  const end = guide.indexOf(END);
  if (start < 0 || end < start) throw new Error(`docs/operations.md needs the markers ${START} and ${END}, in that order`);
  return `${guide.slice(0, start + START.length)}\n${settingsTable()}\n${guide.slice(end)}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const guide = readFileSync(OPERATIONS, 'utf8');
  const written = withSettings(guide);
  if (written !== guide) writeFileSync(OPERATIONS, written);
  console.log(
    written === guide ? 'docs/operations.md: the settings table was current' : 'docs/operations.md: the settings table rewritten from src/config/settings.ts',
  );
}
