// npm run docs: the reference site, dist/docs/index.html, built from the bundled spec (dist/openapi.yaml,
// written by `npm run bundle` just before) and viewable with no network at all:
//  - `--inlineBundle` puts Redoc's script in the page instead of loading it from Redocly's CDN;
//  - the only other remote resource, the "API docs by Redocly" logo image, is replaced by an inline
//    SVG (the attribution text and link stay).
// The browser test (test/docs/docs.test.ts) opens the page with every non-local request blocked.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const spec = 'dist/openapi.yaml';
const output = 'dist/docs/index.html';

if (!existsSync(new URL(`../${spec}`, import.meta.url))) {
  console.error(`${spec} is missing: run 'npm run bundle' first (npm run docs does)`);
  process.exit(1);
}

execFileSync('npx', ['--no-install', 'redocly', 'build-docs', spec, '-o', output, '--inlineBundle', '--title', 'Payroll Fee Estimation API'], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, REDOCLY_TELEMETRY: 'off' },
});

const logo = (text: string) =>
  'data:image/svg+xml,' +
  encodeURIComponent(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${text.length * 7}" height="14">` +
      `<text x="0" y="11" font-family="sans-serif" font-size="11" font-weight="600" fill="#0044d4">${text}</text></svg>`,
  ).replace(/'/g, '%27');
const file = new URL(`../${output}`, import.meta.url);
let html = readFileSync(file, 'utf8');
html = html.replaceAll('https://cdn.redoc.ly/redoc/logo-mini-full.svg', logo('Redocly')).replaceAll('https://cdn.redoc.ly/redoc/logo-mini.svg', logo('R'));
// Redoc's icon sets (cdn.redocly.com) are only fetched for features this page does not use; the
// browser test fails on any remote request, so a new one cannot slip in unseen.
const remote = [
  ...(html.match(/https:\/\/cdn\.redoc\.ly[^"'`\s)]*/g) ?? []),
  ...(html.match(/<(?:script|link|img)\b[^>]*\b(?:src|href)=["']?(?:https?:)?\/\/[^>]*>/gi) ?? []),
];
if (remote.length > 0) {
  console.error(`${output} still loads remote resources: ${[...new Set(remote)].join(', ')}`);
  process.exit(1);
}
// Readability, on top of Redoc's theme (its CSS variables and classes of the page's markdown):
//  - the middle column, where the rules are written, takes about two thirds of the content width at
//    1440 px (Redoc gives the samples half of it, which left ~480 px of text per line);
//  - a word is never broken inside a table cell (Redoc lets inline code break anywhere): a table wider
//    than its column scrolls sideways inside itself, never the page;
//  - code blocks and samples wrap their long lines instead of cutting an error message off.
const READING_CSS = `
:root { --panel-samples-width: 36%; }
table.md { display: block; overflow-x: auto; max-width: 100%; width: auto; }
table.md th, table.md td, table.md code { word-break: normal; overflow-wrap: normal; }
table.md code { white-space: nowrap; }
pre, pre code { white-space: pre-wrap !important; overflow-wrap: anywhere; word-break: normal; }
`;
html = html.replace('</head>', `<style id="payroll-docs-reading">${READING_CSS}</style>\n</head>`);
writeFileSync(file, html);
console.log(`${output}: no CDN resource; open it from disk or any static server`);
