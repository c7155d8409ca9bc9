import { readFileSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A file of test/fixtures/rates/, as a feed serves it. */
export function rateFixture(name: string): string {
  return readFileSync(new URL(`../fixtures/rates/${name}`, import.meta.url), 'utf8');
}

/**
 * A rate feed on loopback (an ephemeral port): it answers every request with what was last set: a
 * body (ECB XML, JSON, anything) with its status and content type, an outage (the connection is cut
 * without an answer), a redirect, or an endless body (`flood`: `bytes` of XML made as the client
 * reads them, never held whole, without a Content-Length); `requests` counts what it was asked, and
 * `sent` how many bytes of the last flood left before the client stopped reading.
 */
export interface FeedServer {
  url: string;
  requests: number;
  readonly sent: number;
  serve(body: string, status?: number, contentType?: string): void;
  outage(): void;
  redirect(location: string, status?: number): void;
  flood(bytes: number): void;
  close(): Promise<void>;
}

type Answer =
  | { kind: 'body'; body: string; status: number; contentType: string | undefined }
  | { kind: 'outage' }
  | { kind: 'redirect'; location: string; status: number }
  | { kind: 'flood'; bytes: number };

export async function startFeedServer(path = '/stats/eurofxref/eurofxref-daily.xml'): Promise<FeedServer> {
  let answer: Answer = { kind: 'outage' };
  const state = { requests: 0, sent: 0 };
  const formatType = path.endsWith('.json') ? 'application/json' : 'text/xml';
  const server: Server = createServer((req, res) => {
    state.requests += 1;
    if (answer.kind === 'outage') {
      req.socket.destroy();
      return;
    }
    if (answer.kind === 'redirect') {
      res.writeHead(answer.status, { location: answer.location }).end();
      return;
    }
    if (answer.kind === 'flood') {
      const chunk = Buffer.from(`<Cube currency="USD" rate="1.0412"/>`.repeat(1820));
      let left = answer.bytes;
      state.sent = 0;
      res.writeHead(200, { 'content-type': formatType });
      const pump = () => {
        // Written only as the socket drains: the server never holds more than a chunk or two.
        while (left > 0 && !res.destroyed) {
          const piece = left >= chunk.length ? chunk : chunk.subarray(0, left);
          left -= piece.length;
          state.sent += piece.length;
          if (!res.write(piece)) return void res.once('drain', pump);
        }
        if (!res.destroyed) res.end();
      };
      res.on('close', () => (left = 0));
      pump();
      return;
    }
    res.writeHead(
      answer.status,
      answer.contentType === undefined ? { 'content-type': formatType } : answer.contentType ? { 'content-type': answer.contentType } : {},
    );
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
    get sent() {
      return state.sent;
    },
    serve(body, status = 200, contentType) {
      answer = { kind: 'body', body, status, contentType };
    },
    outage() {
      answer = { kind: 'outage' };
    },
    redirect(location, status = 302) {
      answer = { kind: 'redirect', location, status };
    },
    flood(bytes) {
      answer = { kind: 'flood', bytes };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
