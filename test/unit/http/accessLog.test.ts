// The access log: one line per request of scalar fields only, written without the redaction walk
// (requestContext.ts), while the logger's other lines keep their redaction.
import { EventEmitter } from 'node:events';
import type { NextFunction, Request, Response } from 'express';
import { describe, expect, it } from 'vitest';
import { accessLog } from '../../../src/http/pipeline/requestContext.js';
import { createLogger } from '../../../src/observability/logger.js';

describe('the access log', () => {
  it('writes method, path, status, time and request id, and leaves the other lines redacted', () => {
    const lines: string[] = [];
    const logger = createLogger('info', { write: (line: string) => void lines.push(line) });
    const res = Object.assign(new EventEmitter(), { statusCode: 201, locals: { requestId: 'request-1' } });
    const req = { method: 'POST', path: '/v1/customers/payroll/requests', headers: { authorization: 'Bearer secret' } };
    let passedOn = false;
    accessLog(logger)(req as unknown as Request, res as unknown as Response, (() => (passedOn = true)) as NextFunction);
    res.emit('finish');
    expect(passedOn).toBe(true);
    const line = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(line).toMatchObject({ msg: 'request', requestId: 'request-1', method: 'POST', path: '/v1/customers/payroll/requests', status: 201 });
    expect(typeof line.ms).toBe('number');
    expect(lines[0]).not.toContain('secret');
    logger.info({ token: 'secret', headers: { authorization: 'Bearer secret' } }, 'logged by mistake');
    expect(lines[1]).not.toContain('secret');
    expect(lines[1]).toContain('[redacted]');
  });
});
