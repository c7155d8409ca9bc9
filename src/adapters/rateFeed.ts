import { type FeedSnapshot, MalformedFeed, parseEcbXml, parseJsonFeed } from './rateFeedParsers.js';

export { type FeedSnapshot, MalformedFeed, isAcceptableRate } from './rateFeedParsers.js';

/** The feed could not be read (refused, timed out, an HTTP error): the poll fails and nothing is replaced. */
export class FeedUnreachable extends Error {}

/** A rate feed: one read of its current rates, or FeedUnreachable / MalformedFeed. */
export interface RateFeed {
  read(): Promise<FeedSnapshot>;
}

/** A feed's body is a few kilobytes; anything far larger is not the feed. */
const MAX_BODY_BYTES = 1_000_000;
const TIMEOUT_MS = 10_000;

/** The feed over HTTP(S) at `url`, in the ECB's XML or the JSON providers' shape. */
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
    let response: Response;
    try {
      response = await fetch(this.url, { signal: AbortSignal.timeout(TIMEOUT_MS), redirect: 'follow' });
    } catch (error) {
      throw new FeedUnreachable(`cannot reach ${this.url}: ${(error as Error).message}`);
    }
    if (!response.ok) throw new FeedUnreachable(`${this.url} answered HTTP ${response.status}`);
    let body: string;
    try {
      body = await response.text();
    } catch (error) {
      throw new FeedUnreachable(`${this.url} broke off its answer: ${(error as Error).message}`);
    }
    if (body.length > MAX_BODY_BYTES) throw new MalformedFeed(`the body is ${body.length} characters, more than a feed's ${MAX_BODY_BYTES}`);
    return body;
  }
}
