// The local listener of `npm run webhooks:listen`: a loopback HTTP server registered as a webhook
// endpoint through the API, that checks each delivery's signature with the client package's
// verifier, prints it and forwards it, unchanged, to the developer's own receiver.
import { type IncomingMessage, type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPayrollClient } from '../../packages/client/src/index.js';
import { WebhookSignatureError, constructEvent } from '../../packages/client/src/webhooks.js';

const ALL_TYPES = ['payroll_request.status_changed', 'transfer.status_changed', 'payout.status_changed', 'transfer.screening_held'] as const;
/** The forward gets the service's own delivery timeout (5 s) less a margin, so the service sees our answer. */
const FORWARD_TIMEOUT_MS = 4_500;

export interface ListenerOptions {
  baseUrl: string;
  token: string;
  forwardTo: string;
  /** The loopback port to listen on; 0 picks a free one. */
  port?: number;
  /** Where each line goes (the console by default). */
  print?: (line: string) => void;
}

export interface Listener {
  endpointId: string;
  /** The endpoint's signing secret, for the developer's receiver to verify what is forwarded. */
  secret: string;
  url: string;
  /** Deletes the endpoint and stops listening. */
  stop(): Promise<void>;
}

const readBody = (req: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });

/** Forwards a verified delivery with the headers the receiver needs to verify it again; its status, or why not. */
async function forward(forwardTo: string, body: string, req: IncomingMessage): Promise<number | string> {
  try {
    const answer = await fetch(forwardTo, {
      method: 'POST',
      body,
      headers: {
        'Content-Type': 'application/json',
        'Payroll-Signature': String(req.headers['payroll-signature']),
        'Payroll-Event-Id': String(req.headers['payroll-event-id']),
      },
      signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
      redirect: 'manual',
    });
    await answer.arrayBuffer();
    return answer.status;
  } catch (error) {
    return (error as Error).message;
  }
}

function serve(forwardTo: string, secret: () => string, print: (line: string) => void): Server {
  return createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      let event;
      try {
        event = await constructEvent(body, req.headers['payroll-signature'] as string | undefined, secret());
      } catch (error) {
        const why = error instanceof WebhookSignatureError ? `${error.reason}: ${error.message}` : String(error);
        print(`refused a delivery: ${why}`);
        res.writeHead(400).end();
        return;
      }
      const outcome = await forward(forwardTo, body, req);
      print(`${event.occurredAt}  ${event.type}  ${event.id}  -> ${typeof outcome === 'number' ? outcome : `not forwarded (${outcome})`}`);
      // The service records the receiver's answer: a failing local receiver is retried like any other.
      res.writeHead(typeof outcome === 'number' && outcome >= 200 && outcome < 300 ? 200 : 502).end();
    })().catch(() => res.writeHead(500).end());
  });
}

export async function startListener(options: ListenerOptions): Promise<Listener> {
  const print = options.print ?? ((line: string) => console.log(line));
  let secret = '';
  const server = serve(options.forwardTo, () => secret, print);
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
  const api = createPayrollClient({ baseUrl: options.baseUrl, token: options.token });
  const created = await api.POST('/v1/customers/webhook-endpoints', {
    body: { url, eventTypes: [...ALL_TYPES], description: 'npm run webhooks:listen (development)' },
  });
  if (!created.data) {
    server.close();
    const error = created.error?.error;
    throw new Error(`the service refused the endpoint ${url}: ${error?.code ?? created.response.status} ${error?.message ?? ''}`);
  }
  const endpoint = created.data.data;
  secret = endpoint.secret;
  return {
    endpointId: endpoint.id,
    secret,
    url,
    async stop() {
      await api.DELETE('/v1/customers/webhook-endpoints/{endpointId}', { params: { path: { endpointId: endpoint.id } } });
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
