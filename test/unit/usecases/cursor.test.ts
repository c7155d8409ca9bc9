import { describe, expect, it } from 'vitest';
import { type CreatedPosition, createdPosition, cursorCodec } from '../../../src/usecases/answers/cursor.js';

const codec = cursorCodec<CreatedPosition, string | null>({
  ...createdPosition,
  filters: { write: (status) => ({ s: status }), mismatch: 'query.cursor belongs to another status filter' },
});
const position = { createdAt: new Date('2026-01-02T03:04:05.678Z'), id: '7b1e0001-0000-4000-8000-000000000001' };
const encoded = (fields: unknown) => Buffer.from(JSON.stringify(fields)).toString('base64url');

describe('the cursor codec', () => {
  it('gives back the position it was given, under the same filters', () => {
    expect(codec.decode(codec.encode(position, 'PENDING'), 'PENDING')).toEqual(position);
    expect(codec.decode(codec.encode(position, null), null)).toEqual(position);
  });

  it('keeps the JSON fields clients already hold', () => {
    expect(JSON.parse(Buffer.from(codec.encode(position, null), 'base64url').toString('utf8'))).toEqual({
      c: '2026-01-02T03:04:05.678Z',
      i: position.id,
      s: null,
    });
  });

  it('refuses a cursor under other filters, and anything it did not issue, as a 400 naming the cursor parameter', () => {
    const notOurs = expect.objectContaining({ code: 'VALIDATION_ERROR', field: 'cursor' });
    expect(() => codec.decode(codec.encode(position, 'PENDING'), null)).toThrow(notOurs);
    for (const cursor of [
      '',
      'not base64 json',
      encoded([1, 2]),
      encoded(null),
      encoded({ c: 'yesterday', i: position.id }),
      encoded({ c: position.createdAt, i: 'x' }),
    ]) {
      expect(() => codec.decode(cursor, null), cursor).toThrow(notOurs);
    }
  });
});
