/** How a webhook delivery leaves the service. */
export interface WebhookSender {
  send(request: { url: string; body: string; headers: Record<string, string> }): Promise<{ statusCode: number | null; error: string | null; durationMs: number }>;
}

/**
 * HTTP POST with a 5 s timeout. Redirects are never followed (a 3xx is a failed attempt), so a
 * receiver cannot bounce our signed payloads to another host.
 */
export class HttpWebhookSender implements WebhookSender {
  constructor(private readonly timeoutMs = 5000) {}

  async send(request: { url: string; body: string; headers: Record<string, string> }) {
    const started = performance.now();
    try {
      const response = await fetch(request.url, {
        method: 'POST',
        body: request.body,
        headers: request.headers,
        redirect: 'manual',
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      await response.arrayBuffer().catch(() => undefined);
      const ok = response.status >= 200 && response.status < 300;
      return { statusCode: response.status, error: ok ? null : `HTTP ${response.status}`, durationMs: Math.round(performance.now() - started) };
    } catch (error) {
      const timedOut = error instanceof Error && error.name === 'TimeoutError';
      return { statusCode: null, error: timedOut ? `no answer within ${this.timeoutMs} ms` : 'connection failed', durationMs: Math.round(performance.now() - started) };
    }
  }
}
