/**
 * Several PostgreSQL hosts in one connection string, as libpq takes them
 * (`postgres://user@h1:5432,h2:5433/db?target_session_attrs=read-write`), for a highly available
 * server (a pg_auto_failover formation, a managed primary with standbys). node-postgres connects
 * to one host only, so the pool is given one host's URL at a time: the primary, found by asking
 * each host whether it is in recovery, and found again when a connection fails or finds the server
 * read-only (docs/operations.md, "Failover").
 */

export interface HostAddress {
  host: string;
  port: number;
}

/** What libpq's target_session_attrs asks of the server; only these two are taken. */
export type TargetSessionAttrs = 'any' | 'read-write';

export interface MultiHostUrl {
  hosts: readonly HostAddress[];
  targetSessionAttrs: TargetSessionAttrs;
  /** The same connection string for one host, without target_session_attrs (which pg does not know). */
  urlFor(host: HostAddress): string;
}

const DEFAULT_PORT = 5432;

/** A connection string this module cannot take; `reason` says which part, for tests and logs. */
export class ConnectionStringError extends Error {
  constructor(
    readonly reason: 'EMPTY_HOST' | 'BAD_PORT' | 'TARGET_SESSION_ATTRS',
    message: string,
  ) {
    super(message);
  }
}
const URL_PATTERN = /^(postgres(?:ql)?:\/\/)(?:([^@/?#]*)@)?([^/?#]*)(.*)$/;

/**
 * The hosts of a connection string, or undefined for a plain one (one host and no
 * target_session_attrs), which keeps the pool's behaviour of a single DATABASE_URL exactly as it was.
 * Throws on a string libpq would refuse: an empty host in a list, a port that is not a number, a
 * target_session_attrs other than any or read-write.
 */
export function parseMultiHostUrl(connectionString: string): MultiHostUrl | undefined {
  const match = URL_PATTERN.exec(connectionString);
  if (!match) return undefined;
  const [, scheme = '', userInfo, hostList = '', rest = ''] = match;
  const queryStart = rest.indexOf('?');
  const path = queryStart === -1 ? rest : rest.slice(0, queryStart);
  const params = new URLSearchParams(queryStart === -1 ? '' : rest.slice(queryStart + 1));
  const attrs = params.get('target_session_attrs');
  if (!hostList.includes(',') && attrs === null) return undefined;
  if (attrs !== null && attrs !== 'any' && attrs !== 'read-write') {
    throw new ConnectionStringError('TARGET_SESSION_ATTRS', `target_session_attrs=${attrs} is not supported here: use read-write (or any)`);
  }
  params.delete('target_session_attrs');
  const hosts = hostList.split(',').map(parseHost);
  const query = params.toString();
  const prefix = `${scheme}${userInfo === undefined ? '' : `${userInfo}@`}`;
  return {
    hosts,
    targetSessionAttrs: attrs ?? 'any',
    urlFor: (host) => `${prefix}${formatHost(host)}${path}${query === '' ? '' : `?${query}`}`,
  };
}

function parseHost(text: string): HostAddress {
  const bracketed = /^\[([^\]]+)\](?::(.*))?$/.exec(text);
  const [host, port] = bracketed ? [bracketed[1] ?? '', bracketed[2]] : splitPort(text);
  if (host === '') throw new ConnectionStringError('EMPTY_HOST', 'A connection string lists an empty host');
  if (port === undefined || port === '') return { host, port: DEFAULT_PORT };
  const number = Number(port);
  if (!/^\d+$/.test(port) || number < 1 || number > 65535) throw new ConnectionStringError('BAD_PORT', `A connection string's port is not a port: ${port}`);
  return { host, port: number };
}

function splitPort(text: string): [string, string | undefined] {
  const colon = text.lastIndexOf(':');
  return colon === -1 ? [text, undefined] : [text.slice(0, colon), text.slice(colon + 1)];
}

function formatHost({ host, port }: HostAddress): string {
  return `${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** What a probe learned of one host: it takes writes, or it is a standby (in recovery, or read-only). */
export type HostRole = 'primary' | 'standby';

/** Thrown while no listed host is a writable primary: an 08xxx code, so the request answers 503. */
export class NoPrimaryError extends Error {
  readonly code = '08001';
  constructor(readonly seen: ReadonlyArray<{ host: HostAddress; role: HostRole | 'unreachable' }>) {
    super(`No writable PostgreSQL primary among the listed hosts (${seen.map(({ host, role }) => `${formatHost(host)} ${role}`).join(', ')})`);
  }
}

/**
 * Which host is the primary. The first caller after a suspicion probes every host at once (a
 * probe is bounded by the connection timeout) and the others wait for the same answer, so a
 * failover costs one round of probes, not one per request. Between two fruitless rounds at least
 * `retryMs` pass: while no primary answers, requests are refused at once (503) instead of each
 * waiting out a round.
 */
export class PrimaryFinder {
  private known: HostAddress | undefined;
  private finding: Promise<HostAddress> | undefined;
  private lastFailure: { at: number; error: NoPrimaryError } | undefined;

  constructor(
    private readonly hosts: readonly HostAddress[],
    private readonly probe: (host: HostAddress) => Promise<HostRole>,
    private readonly options: { targetSessionAttrs: TargetSessionAttrs; retryMs: number; now?: () => number },
  ) {}

  /** The primary last found, if it is still trusted. */
  current(): HostAddress | undefined {
    return this.known;
  }

  /** The primary: the one known, or the one a new round of probes finds; throws NoPrimaryError. */
  primary(): Promise<HostAddress> {
    if (this.known) return Promise.resolve(this.known);
    const now = (this.options.now ?? Date.now)();
    if (this.lastFailure && now - this.lastFailure.at < this.options.retryMs) return Promise.reject(this.lastFailure.error);
    this.finding ??= this.find().finally(() => (this.finding = undefined));
    return this.finding;
  }

  /** A connection to `host` failed or found it read-only: the next caller looks again. */
  suspect(host: HostAddress): void {
    if (this.known && sameHost(this.known, host)) this.known = undefined;
    this.lastFailure = undefined;
  }

  /** Something failed on the primary last found (which host, the caller cannot tell): look again. */
  suspectCurrent(): void {
    if (this.known) this.suspect(this.known);
  }

  private async find(): Promise<HostAddress> {
    const roles = await Promise.allSettled(this.hosts.map((host) => this.probe(host)));
    const seen: Array<{ host: HostAddress; role: HostRole | 'unreachable' }> = [];
    for (const [index, outcome] of roles.entries()) {
      const host = this.hosts[index] as HostAddress;
      const role = outcome.status === 'fulfilled' ? outcome.value : undefined;
      seen.push({ host, role: role ?? 'unreachable' });
      if (role === 'primary' || (role === 'standby' && this.options.targetSessionAttrs === 'any')) {
        this.known = host;
        this.lastFailure = undefined;
        return host;
      }
    }
    const error = new NoPrimaryError(seen);
    this.lastFailure = { at: (this.options.now ?? Date.now)(), error };
    throw error;
  }
}

function sameHost(a: HostAddress, b: HostAddress): boolean {
  return a.host === b.host && a.port === b.port;
}
