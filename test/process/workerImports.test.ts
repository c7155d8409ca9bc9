// `npm run worker` loads no HTTP code: the import graph of src/worker/main.ts (type-only imports,
// erased at run time, left out) reaches neither src/http nor Express and its middleware.
import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const IMPORT = /^\s*(import|export)\s+(?!type\b)[^'";]*?from\s+'([^']+)'|^\s*import\s+'([^']+)'|import\('([^']+)'\)/gm;

/** Every module a file loads at run time, followed through our own files: `{ files, packages }`. */
function runtimeGraph(entry: string): { files: string[]; packages: string[] } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const specifier = match[2] ?? match[3] ?? match[4] ?? '';
      if (specifier.startsWith('.')) visit(join(dirname(file), specifier).replace(/\.js$/, '.ts'));
      else if (!specifier.startsWith('node:')) packages.add(specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!);
    }
  };
  visit(join(root, entry));
  return { files: [...files].map((file) => relative(root, file)), packages: [...packages] };
}

describe('the worker process', () => {
  it('loads no HTTP code', () => {
    const worker = runtimeGraph('src/worker/main.ts');
    expect(worker.files).toContain('src/composition/worker.ts');
    expect(worker.files).toContain('src/usecases/payroll/execution.ts');
    expect(worker.files.filter((file) => file.startsWith('src/http/'))).toEqual([]);
    for (const http of ['express', 'helmet', 'express-openapi-validator', 'cors', 'express-rate-limit']) expect(worker.packages).not.toContain(http);
  });

  it('is told apart from the server, which does load them', () => {
    const server = runtimeGraph('src/main.ts');
    expect(server.files).toContain('src/http/pipeline/app.ts');
    expect(server.packages).toEqual(expect.arrayContaining(['express', 'helmet', 'express-openapi-validator']));
  });
});
