/**
 * A name reduced to what a comparison should see: the same person written "UTHMAN, Omar Mahmoud",
 * "Omar Mahmoud Uthman" or "OMAR MAHMOUD UTHMAN" gives the same tokens, and so does "Jérôme" typed
 * as "Jerome" on a keyboard without accents.
 */

/** Combining marks (accents) left apart by NFKD. */
const COMBINING = /\p{M}+/gu;
/** Apostrophes are dropped ("Sa'd" is "Sad"); every other character that is not a letter or digit separates tokens. */
const APOSTROPHES = /['’‘`´]/g;
const SEPARATORS = /[^\p{L}\p{N}]+/gu;

/** Letters a decomposition does not reach, written as people without them type them. */
const FOLDED: Readonly<Record<string, string>> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', đ: 'd', ð: 'd', þ: 'th', ł: 'l', ı: 'i' };

/**
 * The tokens of a name: "LAST, First" read as "First LAST", case and diacritics dropped,
 * punctuation as a separator, sorted so that token order does not count.
 */
export function nameTokens(name: string): string[] {
  const comma = name.indexOf(',');
  const ordered = comma < 0 ? name : `${name.slice(comma + 1)} ${name.slice(0, comma)}`;
  const plain = ordered
    .normalize('NFKD')
    .replace(COMBINING, '')
    .toLowerCase()
    .replace(/[ßæœøđðþłı]/g, (c) => FOLDED[c] ?? c)
    .replace(APOSTROPHES, '');
  return plain
    .split(SEPARATORS)
    .filter((token) => token.length > 0)
    .sort();
}

/** A name's normal form: its tokens, space-separated (equal for the same name in any order, case or accent). */
export function normalName(name: string): string {
  return nameTokens(name).join(' ');
}
