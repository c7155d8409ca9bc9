// No setting is read outside its declaration: every environment variable src/config reads is declared
// in src/config/settings.ts (and so has its row in docs/operations.md), every declaration is read, and
// a variable read elsewhere in src/ is one declared as read there, or OpenTelemetry's own.
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SETTINGS } from '../../../src/config/settings.js';
import { inRepo } from '../../support/build.js';

/** The server's start hands its seeding child the database's URL: a message between two processes, not a setting. */
const NOT_SETTINGS = ['PAYROLL_SEED_DATABASE_URL'];
/** The OpenTelemetry SDK's own variables (OTEL_SERVICE_NAME, OTEL_TRACES_SAMPLER…), which it documents and honours. */
const OPEN_TELEMETRY = /^OTEL_/;

const declared = new Set(Object.keys(SETTINGS));

/** The TypeScript files under a folder of the repository, as paths from its root. */
const sources = (folder: string) =>
  readdirSync(inRepo(folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => relative(inRepo(), join(inRepo(folder), file)));

/** Names a file reads from an environment (`env.X`, `env['X']`) or through a declaration (`SETTINGS.X`). */
function namesIn(file: string): { fromEnv: string[]; fromDeclarations: string[] } {
  const text = readFileSync(inRepo(file), 'utf8');
  const all = (pattern: RegExp) => [...text.matchAll(pattern)].map((match) => match[1]!);
  return {
    fromEnv: all(/\benv(?:\.|\[')([A-Z][A-Z0-9_]*)/g),
    fromDeclarations: all(/_?SETTINGS\.([A-Z][A-Z0-9_]*)/g),
  };
}

describe('the declaration of every setting', () => {
  const config = sources('src/config');

  it('declares every variable src/config reads', () => {
    for (const file of config) {
      const { fromEnv, fromDeclarations } = namesIn(file);
      for (const name of [...fromEnv, ...fromDeclarations]) expect(declared, `${file} reads ${name}`).toContain(name);
    }
  });

  it('is the only way src/config reads a value: no env.X beside the declarations', () => {
    // productionProblems asks whether WORLD_FILE is set at all, which no value can say.
    const direct = config.flatMap((file) => namesIn(file).fromEnv.map((name) => `${file}: ${name}`));
    expect(direct).toEqual(['src/config/config.ts: WORLD_FILE']);
  });

  it('is read: by loadConfig, or where its declaration says', () => {
    const readers = config.filter((file) => !file.startsWith('src/config/settings'));
    const readByConfig = new Set(readers.flatMap((file) => namesIn(file).fromDeclarations));
    for (const setting of Object.values(SETTINGS)) {
      if (setting.readIn) expect(readFileSync(inRepo(setting.readIn), 'utf8'), `${setting.readIn} reads ${setting.name}`).toContain(setting.name);
      else expect(readByConfig, `loadConfig reads ${setting.name}`).toContain(setting.name);
    }
  });

  it('names where the rest of src/ reads a variable', () => {
    for (const file of sources('src').filter((file) => !file.startsWith('src/config/'))) {
      for (const name of namesIn(file).fromEnv) {
        if (OPEN_TELEMETRY.test(name) && !declared.has(name)) continue;
        if (NOT_SETTINGS.includes(name)) continue;
        expect(declared, `${file} reads ${name}`).toContain(name);
        expect(SETTINGS[name as keyof typeof SETTINGS].readIn, `${name} is read in ${file}`).toBe(file);
      }
    }
  });
});
