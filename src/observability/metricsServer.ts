import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ScrapeSources, createPrometheusMetrics, exposition } from './prometheus.js';
import { installMetrics, metrics as installed } from './telemetry.js';

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

/**
 * Installs the Prometheus metrics as the process's sink and serves `GET /metrics` on `port`, a port
 * of its own: never on the API's, where it would tell anyone the volumes that move. Anything else
 * on this port is 404. Port 0 picks a free one (tests); `host` as the API's (HOST), all interfaces when
 * undefined. Closing it puts back the sink it replaced.
 */
export async function startMetricsServer(port: number, host: string | undefined, sources: ScrapeSources): Promise<MetricsServer> {
  const { metrics, registry } = createPrometheusMetrics(sources);
  const previous = installed;
  installMetrics(metrics);
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found: GET /metrics\n');
      return;
    }
    exposition(registry).then(
      ({ contentType, body }) => res.writeHead(200, { 'Content-Type': contentType }).end(req.method === 'HEAD' ? undefined : body),
      (error: unknown) => res.writeHead(500, { 'Content-Type': 'text/plain' }).end(`metrics failed: ${(error as Error).message}\n`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    // The sink goes with the server (tests build many servers in one process).
    close: () =>
      new Promise<void>((resolve) => {
        installMetrics(previous);
        server.close(() => resolve());
      }),
  };
}
