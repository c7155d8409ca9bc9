import { readFileSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A file of test/fixtures/rates/, as a feed serves it. */
export function rateFixture(name: string): string {
  return readFileSync(new URL(`../fixtures/rates/${name}`, import.meta.url), 'utf8');
}

/**
 * A rate feed on loopback (an ephemeral port): it answers every request with what `serve` last set,
 * a body (ECB XML, JSON, anything) with its status, or an outage (the connection is cut without an
 * answer); `requests` counts what it was asked.
 */
export interface FeedServer {
  url: string;
  requests: number;
  serve(body: string, status?: number): void;
  outage(): void;
  close(): Promise<void>;
}

export async function startFeedServer(path = '/stats/eurofxref/eurofxref-daily.xml'): Promise<FeedServer> {
  let answer: { body: string; status: number } | 'outage' = 'outage';
  const state = { requests: 0 };
  const server: Server = createServer((req, res) => {
    state.requests += 1;
    if (answer === 'outage') {
      req.socket.destroy();
      return;
    }
    res.writeHead(answer.status, { 'content-type': path.endsWith('.json') ? 'application/json' : 'text/xml' });
    res.end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    get requests() {
      return state.requests;
    },
    set requests(value: number) {
      state.requests = value;
    },
    serve(body, status = 200) {
      answer = { body, status };
    },
    outage() {
      answer = 'outage';
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
