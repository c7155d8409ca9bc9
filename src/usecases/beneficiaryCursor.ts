import { validationError } from '../domain/errors.js';

/** The filters a beneficiary cursor was issued for: a page continues only with the same ones. */
export interface BeneficiaryFilters {
  active: boolean | null;
  search: string | null;
}

interface Position {
  createdAt: Date;
  id: string;
}

/** Opaque to clients: the keyset of the last row of the page and the filters it belongs to. */
export function encodeBeneficiaryCursor(position: Position, filters: BeneficiaryFilters): string {
  const payload = { c: position.createdAt.toISOString(), i: position.id, f: [filters.active, filters.search] };
  return Buffer.from(JSON.stringify(payload)).toString('base64url');
}

export function decodeBeneficiaryCursor(cursor: string, filters: BeneficiaryFilters): Position {
  let parsed: { c?: unknown; i?: unknown; f?: unknown };
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as typeof parsed;
  } catch {
    throw validationError('query.cursor is not a cursor this service issued');
  }
  const createdAt = typeof parsed.c === 'string' ? new Date(parsed.c) : new Date(Number.NaN);
  const validId = typeof parsed.i === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(parsed.i);
  if (!validId || Number.isNaN(createdAt.getTime()) || !Array.isArray(parsed.f)) throw validationError('query.cursor is not a cursor this service issued');
  const [active, search] = parsed.f as unknown[];
  if (active !== filters.active || search !== filters.search) throw validationError('query.cursor belongs to other active or q filters');
  return { createdAt, id: parsed.i as string };
}
