// npm run docs: the reference site, dist/docs/index.html, built from the bundled spec (dist/openapi.yaml
// and dist/openapi.json, bundled here first) with the guides of docs/ added as pages
// (scripts/docs-guides.ts), and viewable with no network at all:
//  - `--inlineBundle` puts Redoc's script in the page instead of loading it from Redocly's CDN;
//  - the only other remote resource, the "API docs by Redocly" logo image, is replaced by an inline
//    SVG (the attribution text and link stay).
// The browser test (test/browser/docs/docs.test.ts) opens the page with every non-local request blocked.
// It prints nothing unless something is wrong: Redocly's own banners and progress lines are shown
// only when a step fails.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { withGuides } from './docs-guides.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const site = 'dist/docs/site.json';
const output = 'dist/docs/index.html';

/** Runs a Redocly command, quietly: its output is printed only when it fails. */
function redocly(args: string[]): void {
  try {
    execFileSync('npx', ['--no-install', 'redocly', ...args], { cwd: root, stdio: 'pipe', env: { ...process.env, REDOCLY_TELEMETRY: 'off' } });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: Buffer; stderr?: Buffer };
    console.error(`redocly ${args.join(' ')} failed:\n${stdout?.toString() ?? ''}${stderr?.toString() ?? ''}`);
    process.exit(1);
  }
}

redocly(['bundle', 'openapi/openapi.yaml', '-o', 'dist/openapi.yaml']);
redocly(['bundle', 'openapi/openapi.yaml', '-o', 'dist/openapi.json']);
mkdirSync(new URL('../dist/docs/', import.meta.url), { recursive: true });
const bundled = JSON.parse(readFileSync(new URL('../dist/openapi.json', import.meta.url), 'utf8')) as Parameters<typeof withGuides>[0];
writeFileSync(new URL(`../${site}`, import.meta.url), JSON.stringify(withGuides(bundled)));
redocly(['build-docs', site, '-o', output, '--inlineBundle', '--title', 'Payroll Fee Estimation API']);

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
//  - code blocks and samples wrap their long lines instead of cutting an error message off;
//  - on a phone (390 px) the title is set smaller and never broken inside a word (Redoc breaks
//    "Distribution" to fit 36 px type beside its Copy button), nor are the menu's labels.
const READING_CSS = `
:root { --panel-samples-width: 36%; }
table.md { display: block; overflow-x: auto; max-width: 100%; width: auto; }
table.md th, table.md td, table.md code { word-break: normal; overflow-wrap: normal; }
table.md code { white-space: nowrap; }
pre, pre code { white-space: pre-wrap !important; overflow-wrap: anywhere; word-break: normal; }
h1, [data-component-name="Menu/Menu"] label, [data-component-name="Menu/Menu"] span { overflow-wrap: normal !important; word-break: normal !important; hyphens: manual; }
@media (max-width: 600px) { h1 { font-size: 24px !important; line-height: 1.3 !important; } }
`;
html = html.replace('</head>', `<style id="payroll-docs-reading">${READING_CSS}</style>\n</head>`);
writeFileSync(file, html);
console.log(`reference docs written to ${output}: open it in a browser (it loads nothing from the network)`);
