import { LRUCache } from 'lru-cache';

/**
 * The one cached form (docs/performance.md#the-one-cached-form): a payroll request's items — its
 * splits, then its transfers — as the request's one writer wrote them, kept as bytes under the
 * request and the version of its items its reader's snapshot saw. A read that finds the same
 * version sends the bytes again instead of reading and writing every item; any change to a split
 * or a transfer gives a new version, so an entry is never served for items that changed. The top
 * level (balances, status, approvals) is always read and written afresh.
 */
export class ItemsTextCache {
  private readonly entries: LRUCache<string, Buffer>;

  /** `maxBytes` above zero (READ_CACHE_MB=0 builds no cache). */
  constructor(maxBytes: number) {
    this.entries = new LRUCache<string, Buffer>({
      maxSize: maxBytes,
      // A request too large to share the memory with others is streamed, as every request is the first time.
      maxEntrySize: Math.max(1, Math.floor(maxBytes / ENTRIES_AT_LEAST)),
      sizeCalculation: (text) => Math.max(1, text.length),
    });
  }

  /** The items' text for this version of the request's items, when a reader kept it. */
  get(requestId: string, itemsVersion: string): Buffer | undefined {
    return this.entries.get(keyOf(requestId, itemsVersion));
  }

  /**
   * The parts as they pass, each encoded once (the socket takes the bytes as they are), and kept
   * under the version once the last has passed, unless they outgrew an entry. A reading that stops
   * early (the client went away) keeps nothing.
   */
  async *keeping(requestId: string, itemsVersion: string, parts: AsyncIterable<string>): AsyncGenerator<Buffer, void, undefined> {
    const limit = this.entries.maxEntrySize;
    let kept: Buffer[] | null = [];
    let bytes = 0;
    for await (const part of parts) {
      const encoded = Buffer.from(part);
      bytes += encoded.length;
      if (kept && bytes <= limit) kept.push(encoded);
      else kept = null;
      yield encoded;
    }
    if (kept) this.entries.set(keyOf(requestId, itemsVersion), Buffer.concat(kept, bytes));
  }
}

/** Room for at least this many requests' items at once, so that one large request does not push out every other. */
const ENTRIES_AT_LEAST = 8;

const keyOf = (requestId: string, itemsVersion: string): string => `${requestId}/${itemsVersion}`;
