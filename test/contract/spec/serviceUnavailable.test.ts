// Every operation that reaches the database documents 503 SERVICE_UNAVAILABLE (the database lost or
// out of time answers it, with Retry-After): an operation added later without it fails here. The
// liveness probe alone touches no database.
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../reliability/spec.js';

describe('the spec: 503 on every operation', () => {
  it('lists 503 SERVICE_UNAVAILABLE for every operation but getHealth', async () => {
    const missing = (await loadSpec()).operations.filter((operation) => operation.operationId !== 'getHealth' && !operation.statuses.has(503));
    expect(missing.map((operation) => operation.operationId)).toEqual([]);
  });
});
