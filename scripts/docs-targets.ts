/**
 * npm run -s docs:targets
 *
 * Rewrites the README's table of the benchmark's targets, between its two markers, from
 * bench/targets.ts: the numbers the bench prints its figures against are the README's.
 * test/unit/docs/readmeTargets.test.ts fails while the README says anything else.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { readmeTargetsTable } from '../bench/targets.js';

export const README = fileURLToPath(new URL('../README.md', import.meta.url));
export const START = '<!-- targets: written by npm run -s docs:targets from bench/targets.ts; do not edit by hand -->';
export const END = '<!-- /targets -->';

/** `readme` with the text between the markers replaced by the table; throws when a marker is missing. */
export function withTargets(readme: string): string {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start < 0 || end < start) throw new Error(`README.md needs the markers ${START} and ${END}, in that order`);
  return `${readme.slice(0, start + START.length)}\n${readmeTargetsTable()}\n${readme.slice(end)}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const readme = readFileSync(README, 'utf8');
  const written = withTargets(readme);
  if (written !== readme) writeFileSync(README, written);
  console.log(written === readme ? 'README.md: the targets table was current' : 'README.md: the targets table rewritten from bench/targets.ts');
}
