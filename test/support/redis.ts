import { Socket } from 'node:net';
import { SharedLimits } from '../../src/http/pipeline/sharedLimits.js';
import { createLogger } from '../../src/observability/logger.js';
import { waitFor } from './polling.js';

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

/** SharedLimits on `url`, as the service makes them: degraded until they connect. */
export function sharedLimits(url: string, prefix: string): SharedLimits {
  return new SharedLimits(url, prefix, createLogger(process.env.TEST_LOG ?? 'silent'));
}

/** SharedLimits on `url`, once connected. */
export async function connectedSharedLimits(url: string, prefix: string, deadlineMs = 15_000): Promise<SharedLimits> {
  const limits = sharedLimits(url, prefix);
  await waitFor(
    `shared limits connected to ${url}`,
    () => limits.state(),
    (state) => state === 'connected',
    { deadlineMs, everyMs: 25 },
  );
  return limits;
}
