/**
 * A webhook receiver on loopback, as the docs tell a customer to write one: it checks each
 * delivery's signature, answers 200, and dedupes by event id (deliveries are at least once: a
 * worker killed after the POST and before its record sends again).
 */
import { verifyWebhook } from '../../packages/client/src/node.js';
import { type Listening, listen } from '../support/http.js';

export class WebhookReceiver {
  /** Event id → how many deliveries of it arrived. */
  readonly deliveries = new Map<string, number>();
  badSignatures = 0;
  /** Event ids delivered with two different bodies: a retry must repeat the event, never rewrite it. */
  readonly conflictingBodies = new Set<string>();
  private readonly bodies = new Map<string, string>();
  secret = '';
  private listening?: Listening;

  async start(): Promise<string> {
    this.listening = await listen((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const signature = String(req.headers['payroll-signature'] ?? '');
        if (!this.secret || !verifyWebhook(body, signature, this.secret)) this.badSignatures++;
        const { id } = JSON.parse(body) as { id: string };
        this.deliveries.set(id, (this.deliveries.get(id) ?? 0) + 1);
        if (this.bodies.has(id) && this.bodies.get(id) !== body) this.conflictingBodies.add(id);
        this.bodies.set(id, body);
        res.writeHead(200).end('ok');
      });
    });
    return `${this.listening.url}/hooks`;
  }

  get duplicates(): number {
    return [...this.deliveries.values()].reduce((sum, n) => sum + n - 1, 0);
  }

  close(): Promise<void> {
    return this.listening?.close() ?? Promise.resolve();
  }
}
