// The TypeScript in the READMEs and guides, as a consumer would paste it: every ```ts block, and the
// consumer's package.json and tsconfig.json that the client's README (packages/client/README.md) shows once.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { inRepo } from './build.js';

const CLIENT_GUIDE = inRepo('packages', 'client', 'README.md');
const EXAMPLE_MARKER = '<!-- client usage example: type-checked by test/process/client/readme-example.test.ts -->';

/** The first fenced block of `language` after `marker` in `file`. */
function blockAfter(file: string, marker: string, language: string): string {
  const text = readFileSync(file, 'utf8');
  const at = text.indexOf(marker);
  if (at < 0) throw new Error(`${file} has no "${marker}" line`);
  const block = new RegExp(`^\`\`\`${language}\\n([\\s\\S]*?)^\`\`\`$`, 'm').exec(text.slice(at + marker.length));
  if (!block) throw new Error(`${file}: no \`\`\`${language} block after "${marker}"`);
  return block[1]!;
}

/** The client usage example of the client package's README. */
export function readmeExample(): string {
  return blockAfter(CLIENT_GUIDE, EXAMPLE_MARKER, 'ts');
}

/** The consumer's package.json and tsconfig.json, as the client package's README shows them. */
export function consumerSetup(): { packageJson: Record<string, unknown>; tsconfig: { compilerOptions: Record<string, unknown> } } {
  return {
    packageJson: JSON.parse(blockAfter(CLIENT_GUIDE, '<!-- consumer package.json -->', 'json')) as Record<string, unknown>,
    tsconfig: JSON.parse(blockAfter(CLIENT_GUIDE, '<!-- consumer tsconfig.json -->', 'json')) as { compilerOptions: Record<string, unknown> },
  };
}

/** The markdown files a reader of the project meets: the READMEs and every guide under docs/. */
export function documents(): string[] {
  const guides = readdirSync(inRepo('docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => inRepo('docs', name));
  return [inRepo('README.md'), inRepo('packages', 'client', 'README.md'), ...guides].filter((file) => existsSync(file));
}

/** Every ```ts block of those files, named after its file and position (`docs_webhooks_1.ts`). */
export function typeScriptSnippets(): Array<{ name: string; source: string }> {
  return documents().flatMap((file) => {
    const text = readFileSync(file, 'utf8');
    const base = file
      .slice(inRepo().length + 1)
      .replace(/\.md$/, '')
      .replace(/[^A-Za-z0-9]+/g, '_');
    return [...text.matchAll(/^```(?:ts|typescript)\n([\s\S]*?)^```$/gm)].map((match, index) => ({ name: `${base}_${index + 1}.ts`, source: match[1]! }));
  });
}
