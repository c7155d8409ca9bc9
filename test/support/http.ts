import { type RequestListener, type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Listening {
  server: Server;
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  url: string;
  /** Drops open keep-alive connections, so that closing never waits for a client. */
  close(): Promise<void>;
}

/**
 * Serves `handler` (an Express app is one) on an ephemeral port of 127.0.0.1: the app under test,
 * a JWKS endpoint, a webhook receiver, a static site. Loopback only, so nothing is reachable from
 * outside the machine.
 */
export async function listen(handler: RequestListener): Promise<Listening> {
  // Longer than the client's keep-alive (undici follows the server's hint minus a second): on a
  // loaded machine a stalled event loop can otherwise let the server close an idle connection just
  // as fetch reuses it (ECONNRESET). Below the 60 s headersTimeout, as Node requires.
  const server = createServer({ keepAliveTimeout: 30_000 }, handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    server,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
