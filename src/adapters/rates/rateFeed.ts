import { type FeedSnapshot, parseEcbXml, parseJsonFeed } from './rateFeedParsers.js';

export { type FeedSnapshot, MalformedFeed, isAcceptableRate } from './rateFeedParsers.js';

/** The feed could not be read (refused, timed out, an HTTP error): the poll fails and nothing is replaced. */
export class FeedUnreachable extends Error {}

/**
 * The feed answered, but not as a feed does: a redirect (followed, it could lead anywhere), a body
 * past the size a feed has, or another content type. The poll fails and nothing is replaced.
 */
export class FeedRefused extends Error {
  constructor(
    message: string,
    readonly reason: 'redirect' | 'too_large' | 'content_type',
  ) {
    super(message);
  }
}

/** A rate feed: one read of its current rates, or FeedUnreachable / FeedRefused / MalformedFeed. */
export interface RateFeed {
  read(): Promise<FeedSnapshot>;
}

/** A feed's body is a few kilobytes; anything far larger is not the feed. */
const MAX_BODY_BYTES = 1_000_000;
const TIMEOUT_MS = 10_000;

/** The content types each format is served with (the ECB serves text/xml). */
const CONTENT_TYPES: Record<'ecb-xml' | 'json', RegExp> = {
  'ecb-xml': /^(?:text|application)\/(?:[\w.+-]+\+)?xml$/,
  json: /^application\/(?:[\w.+-]+\+)?json$/,
};

/**
 * The feed over HTTP(S) at `url`, in the ECB's XML or the JSON providers' shape, read as an answer
 * that may be hostile: no redirect is followed, the content type must be the format's, and the body
 * is counted as it arrives and the connection cut past MAX_BODY_BYTES, so a feed gone wrong can
 * neither lead the poll elsewhere nor make the worker hold more than that.
 */
export class HttpRateFeed implements RateFeed {
  constructor(
    private readonly url: string,
    private readonly format: 'ecb-xml' | 'json',
  ) {}

  async read(): Promise<FeedSnapshot> {
    const body = await this.fetchBody();
    return this.format === 'ecb-xml' ? parseEcbXml(body) : parseJsonFeed(body);
  }

  private async fetchBody(): Promise<string> {
    const abort = new AbortController();
    const signal = AbortSignal.any([abort.signal, AbortSignal.timeout(TIMEOUT_MS)]);
    let response: Response;
    try {
      response = await fetch(this.url, { signal, redirect: 'manual' });
    } catch (error) {
      throw new FeedUnreachable(`cannot reach ${this.url}: ${(error as Error).message}`);
    }
    try {
      if (response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400)) {
        throw new FeedRefused(
          `${this.url} answered HTTP ${response.status}, a redirect (to ${response.headers.get('location') ?? 'nowhere said'}); a feed is read where it is configured`,
          'redirect',
        );
      }
      if (!response.ok) throw new FeedUnreachable(`${this.url} answered HTTP ${response.status}`);
      const contentType = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
      if (!CONTENT_TYPES[this.format].test(contentType)) {
        throw new FeedRefused(`${this.url} answered ${contentType || 'no content type'}, not the ${this.format} feed's`, 'content_type');
      }
      const declared = Number(response.headers.get('content-length') ?? 0);
      if (declared > MAX_BODY_BYTES) throw new FeedRefused(`the body is ${declared} bytes, more than a feed's ${MAX_BODY_BYTES}`, 'too_large');
      return await this.readCapped(response);
    } finally {
      // Whatever was not read is not wanted: the connection goes, and the feed's bytes with it.
      abort.abort();
    }
  }

  private async readCapped(response: Response): Promise<string> {
    if (!response.body) return '';
    const chunks: Uint8Array[] = [];
    let received = 0;
    const reader = response.body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        received += value.byteLength;
        if (received > MAX_BODY_BYTES)
          throw new FeedRefused(`the body passed ${MAX_BODY_BYTES} bytes, more than a feed's; the connection was cut`, 'too_large');
        chunks.push(value);
      }
    } catch (error) {
      if (error instanceof FeedRefused) throw error;
      throw new FeedUnreachable(`${this.url} broke off its answer: ${(error as Error).message}`);
    } finally {
      await reader.cancel().catch(() => undefined);
    }
    return Buffer.concat(chunks).toString('utf8');
  }
}
