import { StringDecoder } from 'node:string_decoder';
import { SaxesParser } from 'saxes';
import { isRepeated } from './xml.js';

/** A document saxes refused (not well-formed, an undeclared entity…). */
export class XmlSyntaxError extends Error {}

/**
 * Replaces an element's parsed value once it is closed: what the reader keeps of it in its parent
 * (a statement's entry becomes its few fields, and its object tree is garbage at once). Undefined
 * keeps the tree.
 */
export type Collapse = (name: string, value: unknown) => unknown;

interface Frame {
  name: string;
  node: Record<string, unknown>;
  text: string;
}

// Below Node's threshold for external strings (about 1 MB): each decoded chunk is an ordinary heap string.
const CHUNK_BYTES = 1 << 19;

/**
 * Reads a document with a streaming (SAX) parser into the same tree `parseXml` gives (texts kept as
 * strings, namespace prefixes dropped, attributes as `@_name`, repeated elements as arrays), except
 * that `collapse` may replace an element by what it makes of it as soon as it closes. A 60 MB
 * statement thus never exists as one object tree, and bytes are decoded half a megabyte at a time,
 * so the text of the whole file is never held as one string either.
 */
export function readXmlTree(input: string | Uint8Array, collapse: Collapse): Record<string, unknown> {
  const root: Frame = { name: '', node: {}, text: '' };
  const stack: Frame[] = [root];
  const parser = new SaxesParser({ position: false });
  parser.on('opentag', (tag) => {
    const node: Record<string, unknown> = {};
    const attributes = tag.attributes as Record<string, string>;
    for (const name in attributes) if (name !== 'xmlns' && !name.startsWith('xmlns:')) node[`@_${localName(name)}`] = attributes[name];
    stack.push({ name: localName(tag.name), node, text: '' });
  });
  const onText = (text: string) => (stack.at(-1)!.text += text);
  parser.on('text', onText);
  parser.on('cdata', onText);
  parser.on('closetag', () => {
    const frame = stack.pop()!;
    const value = valueOf(frame);
    append(stack.at(-1)!.node, frame.name, collapse(frame.name, value) ?? value);
  });
  try {
    if (typeof input === 'string') parser.write(input);
    else {
      // Node's own decoder (a character cut between two chunks is carried over): several times faster than TextDecoder.
      const decoder = new StringDecoder('utf8');
      for (let at = 0; at < input.length; at += CHUNK_BYTES) parser.write(decoder.write(input.subarray(at, at + CHUNK_BYTES)));
      parser.write(decoder.end());
    }
    parser.close();
  } catch (error) {
    throw new XmlSyntaxError(`Not well-formed XML: ${(error as Error).message}`);
  }
  return root.node;
}

/** As fast-xml-parser gives it: a text-only element is its trimmed text; otherwise an object, its text under `#text`. */
function valueOf(frame: Frame): unknown {
  const text = frame.text.trim();
  // Attributes and children both live in node: an empty node is a text-only element.
  if (Object.keys(frame.node).length === 0) return detached(text);
  if (text !== '') frame.node['#text'] = detached(text);
  return frame.node;
}

/**
 * The text as a string of its own. A parser's text is a slice of the chunk it was read from, and a
 * slice keeps its whole chunk alive: the 100,000 entries kept from a statement would hold every
 * chunk of the file. Joining forces a fresh copy of just these characters.
 */
function detached(text: string): string {
  return text.length < 13 ? text : (' ' + text).slice(1);
}

function append(parent: Record<string, unknown>, name: string, value: unknown): void {
  const existing = parent[name];
  if (existing === undefined) parent[name] = isRepeated(name) ? [value] : value;
  else if (Array.isArray(existing)) existing.push(value);
  else parent[name] = [existing, value];
}

function localName(name: string): string {
  const colon = name.indexOf(':');
  return colon < 0 ? name : name.slice(colon + 1);
}
