// Type-checks code as a consumer of the package writes it: a scratch project with its own
// tsconfig (strict, NodeNext, as docs/client.md asks of consumers), compiled by this repository's tsc.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inRepo, run } from './build.js';

export interface ScratchProject {
  /** Which files of the project to compile: `include` globs or an explicit `files` list. */
  include?: string[];
  files?: string[];
  /** Off to check that the package's own .d.ts files compile in the consumer. */
  skipLibCheck: boolean;
  /** Module name → source files, to compile against the client's sources instead of a build. */
  paths?: Record<string, string[]>;
}

/** Writes `dir`/tsconfig.json for `project` and runs tsc on it; throws with tsc's output on an error. */
export function typeCheck(dir: string, project: ScratchProject): void {
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        noEmit: true,
        skipLibCheck: project.skipLibCheck,
        types: ['node'],
        typeRoots: [inRepo('node_modules', '@types')],
        ...(project.paths && { paths: project.paths }),
      },
      ...(project.include && { include: project.include }),
      ...(project.files && { files: project.files }),
    }),
  );
  run(process.execPath, [inRepo('node_modules', 'typescript', 'bin', 'tsc'), '-p', dir], { cwd: dir });
}
