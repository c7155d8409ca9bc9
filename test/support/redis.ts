import { Socket } from 'node:net';
import { SharedLimits } from '../../src/http/sharedLimits.js';
import { createLogger } from '../../src/observability/logger.js';

/**
 * Whether a Redis server answers at `url` (a PING within `timeoutMs`): the Redis tests skip, saying
 * so, on a machine without one, as the PostgreSQL-only tests do without TEST_DATABASE_URL.
 */
export function redisAnswers(url: string, timeoutMs = 1000): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (answer: boolean) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('error', () => done(false));
    // "+PONG", or "-NOAUTH …" from a server that wants a password: either way Redis is there.
    socket.once('data', (chunk) => done(/^[+-]/.test(chunk.toString())));
    socket.connect(Number(port || 6379), hostname.replace(/^\[|\]$/g, '') || '127.0.0.1', () => socket.write('PING\r\n'));
  });
}

/** SharedLimits on `url`, once connected (or once `timeoutMs` has passed, degraded). */
export async function connectedSharedLimits(url: string, prefix: string, timeoutMs = 15_000): Promise<SharedLimits> {
  const limits = new SharedLimits(url, prefix, createLogger(process.env.TEST_LOG ?? 'silent'));
  await waitFor(() => limits.state() === 'connected', timeoutMs);
  return limits;
}

export async function waitFor(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
  return condition();
}
