import { describe, expect, it } from 'vitest';
import { newPayrollFeeHash } from '../../../src/domain/fees/feeHash.js';

describe('newPayrollFeeHash', () => {
  it('gives 256 random bits as 43 base64url characters, never the same twice across many refills of its random pool', () => {
    // 1,000 hashes cross the pool's 128-hash refill several times.
    const hashes = Array.from({ length: 1_000 }, () => newPayrollFeeHash());
    for (const hash of hashes) expect(hash).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(new Set(hashes).size).toBe(hashes.length);
    for (const hash of hashes) expect(Buffer.from(hash, 'base64url').length).toBe(32);
  });
});
