import { type ClientRateLimitInfo, MemoryStore, type Options, type Store } from 'express-rate-limit';
import type { Logger } from 'pino';
import { RedisStore } from 'rate-limit-redis';
import { createClient } from 'redis';

/**
 * The limits several instances share through Redis (REDIS_URL): the rate limiter's budgets and
 * the heavy-operation slots. Redis is an optimisation, never a dependency: the process starts and
 * serves without it, each limit falls back to this instance's memory while Redis is away (said
 * once in the log, and by /readyz as `degraded`), and goes back to Redis when it returns.
 * Commands fail at once while disconnected (no offline queue), so no request waits for Redis.
 */
export class SharedLimits {
  private readonly client;
  private readonly memory = new MemoryStore();
  private redisStore: RedisStore | undefined;
  private rateLimitOptions: Options | undefined;
  private connected = false;
  private outageLogged = false;
  private closing = false;
  /** The RedisStore being made after a (re)connection: the limiter's calls wait for it rather than count in memory. */
  private storeReady: Promise<void> | undefined;

  constructor(
    url: string,
    readonly prefix: string,
    private readonly logger: Logger,
  ) {
    this.client = createClient({
      url,
      disableOfflineQueue: true,
      socket: { connectTimeout: 2000, reconnectStrategy: (attempt) => Math.min(100 * 2 ** attempt, 5000) },
    });
    this.client.on('ready', () => void (this.storeReady = this.onReady()));
    this.client.on('error', (error: Error) => this.onDown(error));
    this.client.on('end', () => this.onDown(new Error('connection closed')));
    // Never awaited: while Redis is down the promise stays pending and the client keeps retrying.
    this.client.connect().catch((error: unknown) => this.onDown(error as Error));
  }

  /** `connected` while Redis serves the limits; `degraded` while this instance's memory does. */
  state(): 'connected' | 'degraded' {
    return this.connected && (this.redisStore || !this.rateLimitOptions) ? 'connected' : 'degraded';
  }

  /** The rate limiter's store: Redis while it answers, memory otherwise. */
  readonly rateLimitStore: Store = {
    init: (options: Options) => {
      this.rateLimitOptions = options;
      this.memory.init(options);
      if (this.connected) this.storeReady = this.onReady();
    },
    get: (key: string) =>
      this.attempt<ClientRateLimitInfo | undefined>(
        (store) => store.get(key),
        () => this.memory.get(key),
      ),
    increment: (key: string) =>
      this.attempt(
        (store) => store.increment(key),
        () => this.memory.increment(key),
      ),
    decrement: (key: string) =>
      this.attempt(
        (store) => store.decrement(key),
        () => this.memory.decrement(key),
      ),
    resetKey: (key: string) =>
      this.attempt(
        (store) => store.resetKey(key),
        () => this.memory.resetKey(key),
      ),
  };

  /** Runs one Redis command (for the heavy-operation slots); undefined while Redis is away. */
  async command(args: string[]): Promise<unknown> {
    if (!this.connected) return undefined;
    try {
      return await this.client.sendCommand(args);
    } catch (error) {
      this.onDown(error as Error);
      return undefined;
    }
  }

  async close(): Promise<void> {
    this.closing = true;
    this.client.removeAllListeners();
    this.client.on('error', () => undefined);
    await this.client.close().catch(() => undefined);
  }

  private async attempt<T>(onRedis: (store: RedisStore) => Promise<T>, inMemory: () => Promise<T> | T): Promise<T> {
    if (this.connected && !this.redisStore) await this.storeReady;
    const store = this.state() === 'connected' ? this.redisStore : undefined;
    if (!store) return inMemory();
    try {
      return await onRedis(store);
    } catch (error) {
      this.onDown(error as Error);
      return inMemory();
    }
  }

  /**
   * A fresh RedisStore on each return (the old one's loaded scripts may be gone with the server),
   * once the rate limiter has given its window: until then the connection serves the slots alone.
   */
  private async onReady(): Promise<void> {
    this.connected = true;
    if (!this.rateLimitOptions) return;
    const store = new RedisStore({ prefix: `${this.prefix}rl:`, sendCommand: (...args: string[]) => this.client.sendCommand(args) });
    try {
      await store.init(this.rateLimitOptions);
    } catch (error) {
      return this.onDown(error as Error);
    }
    this.redisStore = store;
    this.outageLogged = false;
    this.logger.info('redis: connected; rate limits and heavy-operation slots are shared by every instance');
  }

  /** Once per outage (the client reports every failed reconnection): the limits are this instance's own meanwhile. */
  private onDown(error: Error): void {
    this.connected = false;
    if (this.outageLogged || this.closing) return;
    this.outageLogged = true;
    this.logger.warn({ err: error.message }, 'redis: unreachable; rate limits and heavy-operation slots are per instance until it returns');
  }
}
