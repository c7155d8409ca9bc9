// npm run build (and prepack): dist/ as published. Compiles src/ (JavaScript + declarations), then copies
// in what the repository generates from the spec: the types (generated/api.d.ts → dist/api.d.ts, the
// package's "./types" export; the declarations, which name it `payroll-fee-service/types` in src/, import it
// as `./api.js`, which every module resolution finds, Node10's included) and the bundled
// spec (redocly bundle → dist/openapi.json, written without indentation). The spec ships once, as JSON
// (which any YAML 1.2 parser reads too): a second, YAML copy would add a third of a megabyte, and the
// installed package (with openapi-fetch) must stay under 1 MB (test/process/client/pack.test.ts).
import { execFileSync } from 'node:child_process';
import process from 'node:process';
import { copyFileSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const pkg = join(dirname(fileURLToPath(import.meta.url)), '..');
const repo = join(pkg, '..', '..');
const bin = (name) => join(repo, 'node_modules', '.bin', name);
const run = (command, args) => {
  try {
    execFileSync(command, args, { cwd: pkg, stdio: 'pipe', env: { ...process.env, REDOCLY_TELEMETRY: 'off' } });
  } catch (error) {
    process.stderr.write(`${[command, ...args].join(' ')} failed:\n${error.stdout ?? ''}${error.stderr ?? ''}`);
    process.exit(1);
  }
};

rmSync(join(pkg, 'dist'), { recursive: true, force: true });
// The declarations keep their documentation (an editor shows it); the JavaScript is emitted a second
// time without comments, which repeat the declarations' and would only add to the installed size.
run(bin('tsc'), ['-p', 'tsconfig.build.json']);
run(bin('tsc'), ['-p', 'tsconfig.build.json', '--removeComments', '--declaration', 'false']);
copyFileSync(join(repo, 'generated', 'api.d.ts'), join(pkg, 'dist', 'api.d.ts'));
for (const file of readdirSync(join(pkg, 'dist')).filter((name) => name.endsWith('.d.ts') && name !== 'api.d.ts')) {
  const path = join(pkg, 'dist', file);
  writeFileSync(path, readFileSync(path, 'utf8').replaceAll("from 'payroll-fee-service/types'", "from './api.js'"));
}
// The generated types indent by 4 spaces, a fifth of the file: one space a level instead (a JSDoc
// line keeps its one extra space), which keeps the installed package under 1 MB with every
// description and example.
const types = join(pkg, 'dist', 'api.d.ts');
writeFileSync(
  types,
  shortenRepeatedDocs(readFileSync(types, 'utf8')).replace(/^ +/gm, (indent) => ' '.repeat(Math.floor(indent.length / 4) + (indent.length % 4))),
);

/**
 * A parameter shared by many operations (Idempotency-Key, X-Request-Id) carries its whole
 * description at each of them: the first keeps it, the others keep its first sentence.
 */
function shortenRepeatedDocs(text) {
  const seen = new Set();
  return text.replace(/\/\*\*[\s\S]*?\*\//g, (block) => {
    if (block.length < 200) return block;
    const words = block
      .replace(/^\/\*\*|\*\/$/g, '')
      .replace(/^\s*\* ?/gm, ' ')
      .replace(/\s+/g, ' ')
      .trim();
    if (!seen.has(words)) {
      seen.add(words);
      return block;
    }
    const first = /^(@description )?(.*?[.:])(\s|$)/.exec(words)?.[2] ?? words.slice(0, 120);
    return `/** @description ${first} (In full at its first use in this file.) */`;
  });
}

const spec = join(pkg, 'dist', 'openapi.json');
run(bin('redocly'), ['bundle', join(repo, 'openapi', 'openapi.yaml'), '-o', spec]);
writeFileSync(spec, JSON.stringify(JSON.parse(readFileSync(spec, 'utf8'))));
