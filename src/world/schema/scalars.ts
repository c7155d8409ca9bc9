import { LOWERCASE_UUID_PATTERN } from '../../domain/ids.js';

/** The scalar `$defs` of the world schema: the formats every object refers to. */
export const scalarDefs = {
  uuid: {
    description: 'A UUID in lowercase hexadecimal.',
    type: 'string',
    format: 'uuid',
    pattern: LOWERCASE_UUID_PATTERN,
  },
  decimal: {
    description: 'A non-negative decimal number written as a string: digits, optionally a point and more digits.',
    type: 'string',
    pattern: '^(0|[1-9][0-9]*)(\\.[0-9]+)?$',
  },
  currencyCode: { type: 'string', pattern: '^[A-Z]{3,5}$' },
  timestamp: { type: 'string', format: 'date-time' },
  day: { description: 'A calendar day, YYYY-MM-DD.', type: 'string', format: 'date', pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' },
  text: { type: 'string', minLength: 1, maxLength: 200 },
  accountProvider: { type: 'string', pattern: '^[A-Z][A-Z0-9_]{1,31}$' },
  bps: {
    description: 'Basis points (1/10000), a non-negative number up to 10000.',
    type: 'number',
    minimum: 0,
    maximum: 10000,
  },
} as const;
