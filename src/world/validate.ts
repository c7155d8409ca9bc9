import { checkCalendars } from './checkCalendars.js';
import { checkPayrollRequests } from './checkPayrollRequests.js';
import { checkRatesAndFees } from './checkRatesAndFees.js';
import { indexReferenceData } from './referenceIndex.js';
import { checkSchema } from './schemaCheck.js';
import type { World } from './types.js';

/**
 * Checks a world file: the JSON schema first, then every reference between entries.
 * Returns the input typed as World (unchanged) or throws the first WorldValidationError.
 */
export function validateWorld(input: unknown): World {
  checkSchema(input);
  const index = indexReferenceData(input);
  checkRatesAndFees(input, index);
  checkCalendars(input, index);
  checkPayrollRequests(input, index);
  return input;
}
