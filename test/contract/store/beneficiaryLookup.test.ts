import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../src/store/database/db.js';
import { findBeneficiariesByIdOrReference } from '../../../src/store/reference/referenceData.js';
import { ids } from '../../fixtures/world.js';
import { freshDatabase } from '../../support/database.js';

let db: Database;
let drop: () => Promise<void>;
beforeAll(async () => ({ db, drop } = await freshDatabase()));
afterAll(() => drop());

describe("a CSV file's beneficiaries looked up by id or reference", () => {
  it("finds the same beneficiaries, only the customer's, whether a few names are probed or many are hashed", async () => {
    const named = { ids: [ids.beneficiaryA2, ids.beneficiaryAInactive, ids.beneficiaryB1], references: ['A-EMP-1', 'NOBODY'] };
    const padding = Array.from({ length: 1500 }, (_, n) => `UNKNOWN-${n}`);
    const byId = <T extends { id: string }>(found: T[]) => [...found].sort((a, b) => a.id.localeCompare(b.id));
    const few = byId(await findBeneficiariesByIdOrReference(db, ids.customerA, named.ids, named.references));
    const many = byId(await findBeneficiariesByIdOrReference(db, ids.customerA, named.ids, [...named.references, ...padding]));
    expect(many).toEqual(few);
    expect(few).toEqual(
      byId([
        { id: ids.beneficiaryA1, reference: 'A-EMP-1', active: true },
        { id: ids.beneficiaryA2, reference: null, active: true },
        { id: ids.beneficiaryAInactive, reference: null, active: false },
      ]),
    );
  });
});
