import { type ApiKeyAuditEntry, appendApiKeyAudit } from '../../store/access/apiKeys.js';
import type { Database } from '../../store/database/db.js';

/** How often the uses gathered are written: the most an audit entry or `lastUsedAt` lags. */
const FLUSH_INTERVAL_MS = 5_000;
/** A batch this large is written at once rather than at the next tick. */
const FLUSH_AT_ENTRIES = 500;
/** Entries kept while the database refuses them; beyond, the oldest are dropped (and counted). */
const MAX_PENDING = 20_000;

/**
 * The uses of API keys, gathered in memory and written in batches: one statement every few seconds
 * appends every use to the audit table and moves each key's `last_used_at`, instead of two writes
 * per request on the request's path. What a crash loses is the last few seconds of audit entries,
 * as an access log's buffer would; the requests themselves are unaffected.
 */
export class ApiKeyUsage {
  private pending: ApiKeyAuditEntry[] = [];
  private flushing: Promise<void> | null = null;
  private readonly timer: NodeJS.Timeout;
  /** Entries dropped because the database refused them for too long. */
  dropped = 0;

  constructor(private readonly db: Database) {
    this.timer = setInterval(() => void this.flush().catch(() => undefined), FLUSH_INTERVAL_MS);
    // A process with nothing else to do may exit: the buffer never keeps it alive.
    this.timer.unref();
  }

  record(entry: ApiKeyAuditEntry): void {
    this.pending.push(entry);
    if (this.pending.length > MAX_PENDING) {
      this.dropped += this.pending.length - MAX_PENDING;
      this.pending.splice(0, this.pending.length - MAX_PENDING);
    }
    if (this.pending.length >= FLUSH_AT_ENTRIES) void this.flush().catch(() => undefined);
  }

  /** Writes everything recorded so far; a failed write keeps the entries for the next attempt. */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing;
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    this.flushing = this.db
      .transaction((tx) => appendApiKeyAudit(tx, batch))
      .then(
        () => undefined,
        (error: unknown) => {
          this.pending = [...batch, ...this.pending];
          throw error;
        },
      );
    try {
      await this.flushing;
    } finally {
      this.flushing = null;
    }
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
