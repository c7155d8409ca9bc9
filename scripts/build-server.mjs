// npm start's and npm run worker's first step (prestart, preworker): the server's TypeScript as
// JavaScript in dist/server/, which `node` then runs with no loader. Running the sources through
// tsx instead keeps tsx's module loader in the process for its whole life (Node 20 runs loader
// hooks on a thread of their own): measured at about 53 MB of the server's RSS under the bench
// (196 → 143 MB). esbuild transforms each file on its own, as tsx does (no bundling, no type
// check: `npm run typecheck` and CI do that), in about half a second.
//
// dist/server/ mirrors the repository: src/ and the client's sources src/ imports
// (packages/client/src), plus what they read next to themselves at run time (the spec in openapi/,
// the SQL migrations, the ISO 20022 XSDs, the sanctions lists' shipped extract), so that every path relative to a module stays true. The new tree is
// written aside and renamed into place: a server starting meanwhile sees the old tree or the new
// one, never half of one.
// Plain JavaScript (.mjs), so that it runs before anything can run TypeScript.
import { cpSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const target = join(root, 'dist', 'server');
const staging = `${target}.staging-${process.pid}`;
const retired = `${target}.retired-${process.pid}`;

/** The TypeScript modules under `dir` (a path from the repository root), declaration files aside. */
const modulesUnder = (dir) =>
  readdirSync(join(root, dir), { recursive: true })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
    .map((file) => join(root, dir, file));

try {
  await build({
    entryPoints: [...modulesUnder('src'), ...modulesUnder('packages/client/src')],
    outdir: staging,
    outbase: root,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
  });
  // openapi/released/ (the last release, for the breaking-change gate) is not read at run time.
  const released = join(root, 'openapi', 'released');
  cpSync(join(root, 'openapi'), join(staging, 'openapi'), { recursive: true, filter: (path) => !path.startsWith(released) });
  cpSync(join(root, 'src', 'store', 'database', 'migrations'), join(staging, 'src', 'store', 'database', 'migrations'), { recursive: true });
  cpSync(join(root, 'src', 'adapters', 'bank', 'iso20022', 'xsd'), join(staging, 'src', 'adapters', 'bank', 'iso20022', 'xsd'), { recursive: true });
  cpSync(join(root, 'sanctions', 'extract'), join(staging, 'sanctions', 'extract'), { recursive: true });
  rmSync(retired, { recursive: true, force: true });
  try {
    renameSync(target, retired);
  } catch (error) {
    if (error.code !== 'ENOENT') throw error;
  }
  try {
    renameSync(staging, target);
  } catch (error) {
    // Another build (a second `npm start` at the same moment) placed its tree first: the same sources, the same tree.
    if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
    rmSync(staging, { recursive: true, force: true });
  }
  rmSync(retired, { recursive: true, force: true });
} catch (error) {
  rmSync(staging, { recursive: true, force: true });
  throw error;
}
