// The guides of docs/ as pages of the reference site: each becomes a tag of its own that holds only
// its text (Redoc's `x-traitTag`), grouped under "Guides" in the menu before the API's own tags
// (`x-tagGroups`). Only the site's copy of the spec gets them (dist/docs/site.json): the bundled spec
// that clients and generators read stays the API alone.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const docs = fileURLToPath(new URL('../docs/', import.meta.url));

/** The guides in reading order, with their menu names; a guide not listed comes after them, named by its title. */
const ORDER: Array<[file: string, name: string]> = [
  ['walkthrough.md', 'Walkthrough'],
  ['spreadsheet.md', 'Payroll from a spreadsheet'],
  ['webhooks.md', 'Receiving webhooks'],
  ['client.md', 'Client, reference site and mock'],
  ['security.md', 'Security'],
  ['operations.md', 'Running the service'],
  ['performance.md', 'Performance'],
  ['settlement.md', 'Settlement'],
  ['bank-files.md', 'Bank files'],
  ['screening.md', 'Sanctions screening'],
  ['console.md', 'The console'],
  ['payroll-at-scale.md', 'Payroll at scale'],
  ['development.md', 'Development'],
  ['contributing.md', 'Contributing'],
  ['fleet-test.md', 'Fleet test'],
];

interface Guide {
  file: string;
  /** The tag's name, which makes its address: `#tag/guide-walkthrough`. */
  id: string;
  /** The menu's and the heading's text. */
  name: string;
  text: string;
}

type Tag = { name: string; description?: string; 'x-traitTag'?: boolean; 'x-displayName'?: string };
type SiteSpec = { tags?: Tag[]; 'x-tagGroups'?: Array<{ name: string; tags: string[] }> } & Record<string, unknown>;

/** The guides present in docs/ (any of them may be missing): the listed ones in order, then the rest. */
function guides(): Guide[] {
  const present = new Set(existsSync(docs) ? readdirSync(docs).filter((name) => name.endsWith('.md')) : []);
  const listed = ORDER.filter(([file]) => present.has(file));
  const others = [...present].filter((file) => !ORDER.some(([listedFile]) => listedFile === file)).sort();
  return [...listed, ...others.map((file): [string, string] => [file, ''])].map(([file, name]) => {
    const text = readFileSync(`${docs}${file}`, 'utf8');
    const title = /^# (.+)$/m.exec(text)?.[1]?.trim() ?? file.replace(/\.md$/, '');
    return { file, id: `guide-${file.replace(/\.md$/, '').replace(/[^A-Za-z0-9]+/g, '-')}`, name: name || title, text };
  });
}

/**
 * A guide's text for the site: without its title (the tag shows it), without its images (files of
 * the repository the one-page site does not carry), links between guides as links inside the site,
 * links into the repository as plain text.
 */
function forSite(guide: Guide, ids: Map<string, string>): string {
  const body = guide.text.replace(/^# .+\n+/, '').replace(/^!\[[^\]]*\]\([^)]*\)\n+/gm, '');
  return body.replace(/\[([^\]]+)\]\(([^)\s]+?)\)/g, (whole, text: string, target: string) => {
    if (/^(https?:|mailto:|#)/.test(target)) return whole;
    const id = ids.get(target.replace(/#.*$/, ''));
    return id ? `[${text}](#tag/${id})` : text;
  });
}

/** The spec with the guides added as tags and the menu grouped: Guides, then the API. */
export function withGuides(spec: SiteSpec): SiteSpec {
  const found = guides();
  const ids = new Map(found.map((guide) => [guide.file, guide.id]));
  const apiTags = (spec.tags ?? []).map((tag) => tag.name);
  const guideTags: Tag[] = found.map((guide) => ({ name: guide.id, 'x-displayName': guide.name, 'x-traitTag': true, description: forSite(guide, ids) }));
  return {
    ...spec,
    tags: [...guideTags, ...(spec.tags ?? [])],
    'x-tagGroups': [
      { name: 'Guides', tags: guideTags.map((tag) => tag.name) },
      { name: 'API', tags: apiTags },
    ],
  };
}
