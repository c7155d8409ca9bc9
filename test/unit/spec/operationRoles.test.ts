// The admin role is what the spec says of each operation: its security requirement names the role
// (`bearerAuth: [admin]`), and the server refuses other callers from that alone (src/http/access/auth.ts).
// The reference docs group the same operations under the Admin tag: the two must agree.
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../reliability/spec.js';

describe('operation roles in the spec', () => {
  it('names the admin role on exactly the operations of the Admin tag', async () => {
    const { operations } = await loadSpec();
    const admin = operations.filter((op) => op.role === 'admin').map((op) => op.operationId);
    const tagged = operations.filter((op) => op.tags.includes('Admin')).map((op) => op.operationId);
    expect(admin.sort()).toEqual(tagged.sort());
    expect(admin.length).toBeGreaterThan(10);
  });
});
