import { XMLParser } from 'fast-xml-parser';

/** A feed's rates as published: one `base` buys `rates[currency]` of each currency (decimal strings, as written). */
export interface FeedSnapshot {
  base: string;
  asOf: Date;
  rates: Map<string, string>;
}

/** The body is not a feed we can read: the poll fails and nothing is replaced. */
export class MalformedFeed extends Error {}

const CURRENCY = /^[A-Z][A-Z0-9]{2,4}$/;
/** A rate as a feed writes it: a plain decimal (an exponent or a sign is refused, not guessed at). */
const DECIMAL = /^\d{1,12}(?:\.\d{1,20})?$/;

/**
 * The ECB's euro foreign exchange reference rates (eurofxref-daily.xml): gesmes:Envelope › Cube ›
 * Cube time="YYYY-MM-DD" › Cube currency="USD" rate="1.0412", where 1 EUR = rate. Every value stays
 * the string the ECB wrote; asOf is the reference date (00:00 UTC).
 */
export function parseEcbXml(body: string): FeedSnapshot {
  let document: unknown;
  try {
    const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', removeNSPrefix: true, parseAttributeValue: false, parseTagValue: false });
    document = parser.parse(body, true);
  } catch (error) {
    throw new MalformedFeed(`not well-formed XML: ${(error as Error).message}`);
  }
  const envelope = (document as { Envelope?: { Cube?: { Cube?: unknown } } }).Envelope;
  const day = envelope?.Cube?.Cube;
  const dated = (Array.isArray(day) ? day[0] : day) as { time?: unknown; Cube?: unknown } | undefined;
  if (!dated || typeof dated.time !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(dated.time)) {
    throw new MalformedFeed('no Envelope › Cube › Cube time="YYYY-MM-DD"');
  }
  const asOf = new Date(`${dated.time}T00:00:00.000Z`);
  if (Number.isNaN(asOf.getTime())) throw new MalformedFeed(`time ${dated.time} is not a date`);
  const cubes = Array.isArray(dated.Cube) ? dated.Cube : dated.Cube === undefined ? [] : [dated.Cube];
  const rates = new Map<string, string>();
  for (const cube of cubes as { currency?: unknown; rate?: unknown }[]) {
    if (typeof cube?.currency === 'string' && typeof cube.rate === 'string') rates.set(cube.currency, cube.rate.trim());
  }
  if (rates.size === 0) throw new MalformedFeed(`no Cube currency rate under ${dated.time}`);
  return { base: 'EUR', asOf, rates };
}

/**
 * The JSON shape commercial providers use: { "base": "USD", "timestamp": <unix seconds>, "rates":
 * { "AED": 3.6725, … } }. The rates are JSON numbers there: each is read as the text it is written
 * with, never through a JS number, so 3.6725 stays 3.6725.
 */
export function parseJsonFeed(body: string): FeedSnapshot {
  let document: unknown;
  try {
    document = JSON.parse(numbersAsStrings(body));
  } catch (error) {
    throw new MalformedFeed(`not JSON: ${(error as Error).message}`);
  }
  const { base, timestamp, rates } = (document ?? {}) as { base?: unknown; timestamp?: unknown; rates?: unknown };
  if (typeof base !== 'string' || !CURRENCY.test(base)) throw new MalformedFeed('no "base" currency code');
  if (typeof timestamp !== 'string' || !/^\d{1,12}$/.test(timestamp)) throw new MalformedFeed('no "timestamp" in whole unix seconds');
  if (typeof rates !== 'object' || rates === null || Array.isArray(rates)) throw new MalformedFeed('no "rates" object');
  const read = new Map<string, string>();
  for (const [currency, rate] of Object.entries(rates)) if (typeof rate === 'string') read.set(currency, rate);
  if (read.size === 0) throw new MalformedFeed('"rates" holds no rate');
  return { base, asOf: new Date(Number(timestamp) * 1000), rates: read };
}

/** Whether a published rate is one we may store: a currency code and a plain decimal above zero. */
export function isAcceptableRate(currency: string, rate: string): boolean {
  return CURRENCY.test(currency) && DECIMAL.test(rate) && /[1-9]/.test(rate);
}

/**
 * The JSON text with every number outside a string quoted, so JSON.parse keeps its digits. A
 * scanner, not a regular expression: a digit inside a string (a key, an escaped quote) stays.
 */
function numbersAsStrings(text: string): string {
  let out = '';
  let index = 0;
  while (index < text.length) {
    const char = text[index]!;
    if (char === '"') {
      let end = index + 1;
      while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      out += text.slice(index, end + 1);
      index = end + 1;
    } else if (char === '-' || (char >= '0' && char <= '9')) {
      const number = /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(index))?.[0] ?? char;
      out += JSON.stringify(number);
      index += number.length;
    } else {
      out += char;
      index += 1;
    }
  }
  return out;
}
