// The README's table of the benchmark's targets is written from bench/targets.ts, the numbers the
// bench prints its figures against: a target changed in one place and not the other fails here.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TARGETS } from '../../../bench/targets.js';
import { END, README, START, withTargets } from '../../../scripts/docs-targets.js';

describe("README.md's targets", () => {
  const readme = readFileSync(README, 'utf8');

  it('are the table npm run -s docs:targets writes from bench/targets.ts', () => {
    expect(readme).toContain(START);
    expect(readme).toContain(END);
    expect(readme, 'run npm run -s docs:targets').toBe(withTargets(readme));
  });

  it('name every target of bench/targets.ts, with its number', () => {
    const table = readme.slice(readme.indexOf(START), readme.indexOf(END));
    for (const [name, { says }] of Object.entries(TARGETS)) expect(table, name).toContain(says);
  });

  it('are the only table of targets in the README: no other figure claims to be one', () => {
    const outside = readme.slice(0, readme.indexOf(START)) + readme.slice(readme.indexOf(END));
    expect(outside).not.toMatch(/^\|.*\btarget\b.*\|$/im);
  });
});
