/**
 * The failover test's PostgreSQL: a pg_auto_failover formation (scripts/failover-formation.sh) of a
 * monitor and two nodes on loopback, whose primary the test kills and whose nodes it asks directly
 * (pg_is_in_recovery, transaction_read_only), so that what it sees does not depend on the code under test.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import pg from 'pg';
import { pause } from '../fleet/client.js';

const execFileAsync = promisify(execFile);

/** Runs the script; a failure carries what it wrote on stderr (where it says what it gave up on). */
async function run(command: string, args: string[], options: { env?: NodeJS.ProcessEnv; timeout?: number } = {}): Promise<{ stdout: string }> {
  try {
    return await execFileAsync(command, args, options);
  } catch (error) {
    const failed = error as { stderr?: string; stdout?: string; message: string };
    throw Object.assign(new Error(`${failed.message}\n${failed.stderr ?? ''}`), { stdout: failed.stdout ?? '' });
  }
}
const SCRIPT = 'scripts/failover-formation.sh';
export const NODES = ['node1', 'node2'] as const;
export type NodeName = (typeof NODES)[number];
export type Role = 'primary' | 'standby' | 'down';

export class Formation {
  url = '';

  constructor(
    readonly dir: string,
    readonly port: number,
  ) {}

  async start(): Promise<void> {
    const { stdout } = await run('bash', [SCRIPT, 'start', this.dir], { env: { ...process.env, FORMATION_PORT: String(this.port) }, timeout: 300_000 });
    this.url = stdout.trim().split('\n').at(-1) ?? '';
  }

  async stop(): Promise<void> {
    await run('bash', [SCRIPT, 'stop', this.dir], { timeout: 120_000 });
  }

  async state(): Promise<string> {
    return (await run('bash', [SCRIPT, 'state', this.dir]).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }))).stdout;
  }

  /** SIGKILL of `node`'s postmaster (its keeper restarts it), or of the whole node (keeper too). */
  async kill(node: NodeName, how: 'postmaster' | 'node'): Promise<void> {
    await run('bash', [SCRIPT, 'kill', this.dir, node, how]);
  }

  /** Starts `node`'s keeper again: a node that was the primary rejoins as a standby. */
  async rejoin(node: NodeName): Promise<void> {
    await run('bash', [SCRIPT, 'run', this.dir, node]);
  }

  urlOf(node: NodeName): string {
    return `postgres://postgres@127.0.0.1:${this.port + 1 + NODES.indexOf(node)}/payroll`;
  }

  async roleOf(node: NodeName): Promise<Role> {
    const client = new pg.Client({ connectionString: this.urlOf(node), connectionTimeoutMillis: 1000, query_timeout: 2000 });
    client.on('error', () => undefined);
    try {
      await client.connect();
      const { rows } = await client.query<{ writable: boolean }>(
        "SELECT NOT pg_is_in_recovery() AND current_setting('transaction_read_only') = 'off' AS writable",
      );
      return rows[0]?.writable ? 'primary' : 'standby';
    } catch {
      return 'down';
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  /** Waits until one node takes writes and the other streams from it as a synchronous standby. */
  async waitForPair(timeoutMs: number): Promise<NodeName> {
    const deadline = Date.now() + timeoutMs;
    let seen = '';
    while (Date.now() < deadline) {
      const roles = await Promise.all(NODES.map((node) => this.roleOf(node)));
      seen = roles.join('/');
      const primary = NODES[roles.indexOf('primary')];
      if (primary && roles.includes('standby') && (await this.syncStandbys(primary)) > 0) return primary;
      await pause(250);
    }
    throw new Error(`the formation did not become a primary with a synchronous standby within ${timeoutMs} ms (nodes ${seen})\n${await this.state()}`);
  }

  /** Standbys the primary waits for at commit (sync_state sync or quorum). */
  private async syncStandbys(primary: NodeName): Promise<number> {
    const client = new pg.Client({ connectionString: this.urlOf(primary), connectionTimeoutMillis: 1000 });
    client.on('error', () => undefined);
    try {
      await client.connect();
      const { rows } = await client.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_replication WHERE sync_state IN ('sync', 'quorum')");
      return rows[0]?.n ?? 0;
    } catch {
      return 0;
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  /**
   * Waits (at most `withinMs`) until a session on `node` is inside a statement matching `pattern`,
   * or still in the transaction that ran it; true when caught, false when the time ran out.
   */
  async waitForStatement(node: NodeName, pattern: RegExp, withinMs: number): Promise<boolean> {
    const client = new pg.Client({ connectionString: this.urlOf(node), connectionTimeoutMillis: 1000 });
    client.on('error', () => undefined);
    const deadline = Date.now() + withinMs;
    try {
      await client.connect();
      while (Date.now() < deadline) {
        const { rows } = await client.query<{ query: string }>(
          "SELECT query FROM pg_stat_activity WHERE datname = 'payroll' AND pid <> pg_backend_pid() AND state IN ('active', 'idle in transaction')",
        );
        if (rows.some((row) => pattern.test(row.query))) return true;
        await pause(5);
      }
      return false;
    } finally {
      await client.end().catch(() => undefined);
    }
  }
}
