import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initiatedTransferJson } from '../../../src/store/wireFormat.js';
import { type FreshDatabase, freshDatabase } from '../../support/database.js';

/**
 * The Transfer JSON has one definition (store/wireFormat.ts): the row's own JSON, written by its
 * trigger, and the INITIATED projection a batch's first event carries are both derived from it.
 */
let fresh: FreshDatabase;
beforeAll(async () => {
  fresh = await freshDatabase();
});
afterAll(async () => fresh.drop());

describe('initiatedTransferJson', () => {
  it("is each transfer's own JSON with status INITIATED and no externalId, every other field as the row writes it", async () => {
    const rows = await fresh.db.query<{ kept: string; initiated: string }>(
      `SELECT t.api_json AS kept, ${initiatedTransferJson('t')} AS initiated FROM transfers t ORDER BY t.id`,
    );
    expect(rows.length).toBeGreaterThan(3);
    for (const row of rows) {
      const { externalId: _sent, status: _status, ...rest } = JSON.parse(row.kept) as Record<string, unknown>;
      expect(JSON.parse(row.initiated)).toEqual({ ...rest, status: 'INITIATED' });
    }
  });
});
