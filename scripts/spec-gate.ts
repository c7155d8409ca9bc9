// npm run spec:gate [-- --released <bundled spec> --spec <bundled spec> --changelog <file>]
// The breaking-change gate CI runs: the spec (bundled first, as dist/openapi.json, unless --spec is
// given) against the last released one, openapi/released/openapi.json. Exit 1 on a breaking change
// while info.version keeps the released major, or when CHANGELOG.md has no section for info.version;
// the changes are printed either way, ready for the changelog. See CHANGELOG.md for how to release.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { bundleSpec } from './support/bundle.js';
import { compareSpecs } from './spec-gate/compare.js';

const USAGE =
  'usage: npm run spec:gate -- [--released openapi/released/openapi.json] [--spec <bundled spec; default: bundle dist/openapi.json>] [--changelog CHANGELOG.md]';

let values: { released: string; spec?: string | undefined; changelog: string; help?: boolean | undefined };
try {
  ({ values } = parseArgs({
    options: {
      released: { type: 'string', default: 'openapi/released/openapi.json' },
      spec: { type: 'string' },
      changelog: { type: 'string', default: 'CHANGELOG.md' },
      help: { type: 'boolean', short: 'h' },
    },
  }));
} catch (error) {
  console.error(`${(error as Error).message}\n${USAGE}`);
  process.exit(2);
}
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}

const specFile = values.spec ?? bundleSpec();
const read = (file: string) => readFileSync(file, 'utf8');
const result = compareSpecs(JSON.parse(read(values.released)), JSON.parse(read(specFile)), read(values.changelog));
function list(title: string, lines: string[]): void {
  if (lines.length > 0) console.log(`\n${title} (${lines.length}):\n${lines.map((line) => `  - ${line}`).join('\n')}`);
}

console.log(`spec gate: ${values.released} (${result.releasedVersion}) → ${specFile} (${result.currentVersion})`);
list('Breaking changes', result.breaking);
list('Non-breaking changes', result.nonBreaking);
if (result.breaking.length + result.nonBreaking.length === 0) console.log('no change a client can see');
if (result.failures.length > 0) {
  console.error(`\nspec gate FAILED:\n${result.failures.map((failure) => `  - ${failure}`).join('\n')}`);
  process.exit(1);
}
console.log('\nspec gate: OK');
