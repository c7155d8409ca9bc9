/** The first check of a world file: the JSON schema, by ajv, with the error turned into a path. */
import Ajv2020Module from 'ajv/dist/2020.js';
import type { ErrorObject } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { worldSchema } from './schema/worldSchema.js';
import type { World } from './types.js';
import { toPath, WorldValidationError, type PathSegment } from './validationError.js';

// ajv and ajv-formats are CommonJS: under NodeNext the default import is module.exports.
const Ajv2020 = Ajv2020Module.default;
const addFormats = addFormatsModule.default;
const ajv = new Ajv2020({ allErrors: false, strict: true });
addFormats(ajv);
const validateSchema = ajv.compile(worldSchema);

function schemaErrorToException(error: ErrorObject): WorldValidationError {
  const segments: PathSegment[] = error.instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
  const params = error.params as Record<string, unknown>;
  // Name the missing or unexpected property itself, not its parent.
  if (error.keyword === 'required' && typeof params.missingProperty === 'string') {
    segments.push(params.missingProperty);
  } else if (error.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') {
    segments.push(params.additionalProperty);
  } else if (error.keyword === 'propertyNames' && typeof params.propertyName === 'string') {
    segments.push(params.propertyName);
  }
  return new WorldValidationError(toPath(segments), error.message ?? `fails schema keyword ${error.keyword}`);
}

/** Throws the first schema error as a WorldValidationError naming its path. */
export function checkSchema(input: unknown): asserts input is World {
  if (validateSchema(input)) return;
  const first = validateSchema.errors?.[0];
  throw first ? schemaErrorToException(first) : new WorldValidationError('world', 'is not a valid world');
}
