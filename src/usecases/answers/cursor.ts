import { validationError } from '../../domain/errors.js';
import { isUuid } from '../../domain/ids.js';

/**
 * The one cursor codec of the list operations. A cursor is opaque to clients: base64url JSON of
 * the place the page ended and of the filters it was issued for, so that a page continues only
 * under the filters it began with. Each list says the JSON fields of its position and filters.
 */
type CursorFields = Record<string, unknown>;

export interface CursorFormat<Position, Filters> {
  /** The position's fields. */
  write: (position: Position) => CursorFields;
  /** The position read back from the fields, or null when they are not what `write` made. */
  read: (fields: CursorFields) => Position | null;
  /** The filters' fields, and the message for a cursor used under other filters. */
  filters?: { write: (filters: Filters) => CursorFields; mismatch: string };
}

export interface CursorCodec<Position, Filters> {
  encode(position: Position, filters: Filters): string;
  /** The position of a cursor this service issued for these filters; a 400 otherwise. */
  decode(cursor: string, filters: Filters): Position;
}

const notOurs = () => validationError('query.cursor is not a cursor this service issued', { field: 'cursor' });

export function cursorCodec<Position, Filters = void>(format: CursorFormat<Position, Filters>): CursorCodec<Position, Filters> {
  return {
    encode(position, filters) {
      const fields = { ...format.write(position), ...format.filters?.write(filters) };
      return Buffer.from(JSON.stringify(fields)).toString('base64url');
    },
    decode(cursor, filters) {
      const fields = parse(cursor);
      const position = fields ? format.read(fields) : null;
      if (!fields || position === null) throw notOurs();
      if (format.filters) {
        const expected = format.filters.write(filters);
        const same = Object.entries(expected).every(([name, value]) => JSON.stringify(fields[name] ?? null) === JSON.stringify(value));
        if (!same) throw validationError(format.filters.mismatch, { field: 'cursor' });
      }
      return position;
    },
  };
}

function parse(cursor: string): CursorFields | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as CursorFields) : null;
  } catch {
    return null;
  }
}

/**
 * A cursor format for a list without filters whose cursors another list's would otherwise pass:
 * `list` is written into each cursor and checked when it comes back.
 */
export function ownListCursor<Position>(list: string, position: Pick<CursorFormat<Position, void>, 'write' | 'read'>): CursorFormat<Position, void> {
  return { ...position, filters: { write: () => ({ l: list }), mismatch: `query.cursor was issued by another list than ${list}` } };
}

/** A keyset position: the creation time and id of the last row of a page (ids break ties). */
export interface CreatedPosition {
  createdAt: Date;
  id: string;
}

/** The fields of a CreatedPosition, `c` and `i`. */
export const createdPosition: Pick<CursorFormat<CreatedPosition, unknown>, 'write' | 'read'> = {
  write: ({ createdAt, id }) => ({ c: createdAt.toISOString(), i: id }),
  read: ({ c, i }) => {
    const createdAt = typeof c === 'string' ? new Date(c) : null;
    return createdAt && !Number.isNaN(createdAt.getTime()) && isUuid(i) ? { createdAt, id: i } : null;
  },
};
