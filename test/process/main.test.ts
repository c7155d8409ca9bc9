import { once } from 'node:events';
import { connect } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { settlesWithin } from '../support/polling.js';
import { freePort, killLeftovers, runEntry, startService, stop } from '../support/processes.js';

afterAll(killLeftovers);

describe('the service process (npm start)', () => {
  it('starts on the demo world, serves, logs JSON without secrets, and stops cleanly on SIGTERM', async () => {
    const port = await freePort();
    const { child, listening, stdout: logs } = startService(port, { DATA_DIR: 'memory://' });
    await listening;
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
    expect(await ready.json()).toEqual({ success: true, data: { status: 'ready', database: 'embedded' } });
    const secretToken = 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl';
    await fetch(`http://127.0.0.1:${port}/v1/customers/payroll/requests/7b1e0007-0000-4000-8000-000000000001`, { headers: { Authorization: secretToken } });
    expect(await stop(child)).toBe(0);
    const entries = logs.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(entries.some((entry) => entry.msg === 'stopped')).toBe(true);
    expect(entries.find((entry) => entry.status === 401)).toMatchObject({ method: 'GET', path: expect.stringContaining('/v1/customers/payroll/requests/') });
    expect(logs.join('\n')).not.toContain('eyJhbGciOiJIUzI1NiJ9');
    expect(logs.join('\n')).not.toMatch(/AE\d{21}/); // no IBANs
    expect(entries.find((entry) => entry.msg === 'listening')).toMatchObject({ host: '127.0.0.1', port });
  }, 120_000);

  it('cuts off a client that stalls its body after HTTP_REQUEST_TIMEOUT_MS', async () => {
    const port = await freePort();
    const timeoutMs = 1500;
    const { child, listening } = startService(port, { DATA_DIR: 'memory://', WORLD_FILE: '', HTTP_REQUEST_TIMEOUT_MS: String(timeoutMs) });
    await listening;
    const socket = connect(port, '127.0.0.1');
    await once(socket, 'connect');
    socket.write('POST /v1/customers/payroll/estimate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{');
    const answer: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => answer.push(chunk));
    // A hang bound, ten times the setting: without it the server waits for the body as long as Node's default, minutes.
    await settlesWithin('the stalled client cut off', once(socket, 'close'), 10 * timeoutMs);
    expect(Buffer.concat(answer).toString()).toMatch(/^HTTP\/1\.1 408/);
    expect(await stop(child)).toBe(0);
  }, 120_000);
});

describe('production settings', () => {
  it('refuses to start with the development secrets or the demo world', async () => {
    const { code, stderr } = await runEntry('src/main.ts', {
      NODE_ENV: 'production',
      PORT: '0',
      DATA_DIR: 'memory://',
      DATABASE_URL: '',
      JWT_SECRET: '',
      FEE_HASH_SECRET: '',
      WORLD_FILE: undefined,
    });
    expect(code).toBe(1);
    expect(stderr).toContain('refusing to start in production');
    expect(stderr).toContain('JWT_SECRET is the development secret');
    expect(stderr).toContain('FEE_HASH_SECRET is the development secret');
    expect(stderr).toContain('WORLD_FILE is the demo world');
  }, 120_000);
});
