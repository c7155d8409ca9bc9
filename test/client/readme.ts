// The README's client usage example: the ```ts block right after the marker comment below.
import { readFileSync } from 'node:fs';
import { inRepo } from '../support/build.js';

const README_MARKER = '<!-- client usage example: type-checked by test/client/readme-example.test.ts -->';

export function readmeExample(): string {
  const readme = readFileSync(inRepo('README.md'), 'utf8');
  const at = readme.indexOf(README_MARKER);
  if (at < 0) throw new Error(`README.md has no "${README_MARKER}" line`);
  const block = /^```ts\n([\s\S]*?)^```$/m.exec(readme.slice(at + README_MARKER.length));
  if (!block) throw new Error('README.md: no ```ts block after the client usage example marker');
  return block[1]!;
}
