// The demo world's ids that the guides and the spec show come from worlds/demo.json: every id of
// the demo world's form (7b1eKKKK-…) written in the READMEs, the guides (the table of ids in
// docs/operations.md, abbreviated ones and {1..N} ranges included) or in the spec is one the demo
// world holds, and the table names the payroll requests' statuses in the order of their ids.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../reliability/spec.js';
import { inRepo } from '../../support/build.js';
import { documents } from '../../support/clientReadme.js';
import { DEMO_WORLD } from '../../support/examples/examples.js';

const DEMO_ID = /7b1e[0-9a-f]{4}-0000-4000-8000-[0-9a-f]{12}/g;

/** Every `id` anywhere in the demo world, with the object that holds it. */
function idsOf(value: unknown, found = new Map<string, Record<string, unknown>>()): Map<string, Record<string, unknown>> {
  if (Array.isArray(value)) value.forEach((item) => idsOf(item, found));
  else if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    if (typeof record.id === 'string') found.set(record.id, record);
    Object.values(record).forEach((item) => idsOf(item, found));
  }
  return found;
}

const demoIds = idsOf(DEMO_WORLD);

/** Ids written in a README table cell: full ids, `…NNNNNNNNNNNN` (same prefix as the id before it) and `…{1..6}` ranges. */
export function idsInCell(cell: string): string[] {
  const ids: string[] = [];
  for (const match of cell.matchAll(
    /(7b1e[0-9a-f]{4}-0000-4000-8000-[0-9]*)\{(\d+)\.\.(\d+)\}|7b1e[0-9a-f]{4}-0000-4000-8000-[0-9a-f]{12}|…([0-9a-f]{12})\b/g,
  )) {
    if (match[1]) {
      for (let n = Number(match[2]); n <= Number(match[3]); n++) ids.push(match[1] + String(n));
    } else if (match[4]) {
      const previous = ids[ids.length - 1];
      if (previous) ids.push(previous.slice(0, 24) + match[4]);
    } else ids.push(match[0]);
  }
  return ids;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

describe('demo-world ids', () => {
  const readme = readFileSync(inRepo('docs', 'operations.md'), 'utf8');
  const tableRows = readme.split('\n').filter((line) => line.startsWith('|') && /7b1e/.test(line));

  it('the operations guide’s table of ids lists ids the demo world holds', () => {
    expect(tableRows.length, 'docs/operations.md has a table of the demo world’s ids').toBeGreaterThan(0);
    const listed = tableRows.flatMap((row) => idsInCell(row));
    expect(listed.filter((id) => !demoIds.has(id))).toEqual([]);
  });

  it('the operations guide’s table names the statuses of the demo payroll requests in the order of their ids', async () => {
    const statuses = ((await loadSpec()).raw.components.schemas.PayrollRequestStatus!.enum ?? []) as string[];
    for (const row of tableRows) {
      const [label = '', cell = ''] = row.split('|').slice(1);
      const named = label.split(/[^A-Z_]+/).filter((word) => statuses.includes(word));
      if (named.length === 0) continue;
      expect(
        idsInCell(cell).map((id) => demoIds.get(id)?.status),
        row,
      ).toEqual(named);
    }
  });

  it('every demo-world id in the READMEs, the guides and the spec is one the demo world holds', () => {
    const sources = [...documents(), ...filesUnder(inRepo('openapi')).filter((path) => !path.includes(`${join('openapi', 'released')}`))];
    const unknown = sources.flatMap((path) =>
      [...readFileSync(path, 'utf8').matchAll(DEMO_ID)]
        .map((match) => match[0])
        .filter((id) => !demoIds.has(id))
        .map((id) => `${path}: ${id}`),
    );
    expect(unknown).toEqual([]);
  });
});
