/**
 * Two small helpers for writing the world schema in TypeScript, so that `json-schema-to-ts`
 * can derive the World types from it (a JSON import loses the literal types it needs).
 */

/** `{ $ref: '#/$defs/uuid' }`, with the literal type FromSchema resolves. */
export function ref<const Name extends string>(name: Name): { readonly $ref: `#/$defs/${Name}` } {
  return { $ref: `#/$defs/${name}` };
}

/**
 * The values of an enum of the OpenAPI spec (a union from generated/api.d.ts), written out for
 * the JSON schema: `tsc` fails when a value is missing or is not in the spec, so a spec change
 * that the world schema does not follow breaks the build.
 */
export function specEnum<Union extends string>() {
  return <const Values extends readonly Union[]>(
    values: Values & ([Union] extends [Values[number]] ? unknown : { missing: Exclude<Union, Values[number]> }),
  ): Values => values;
}
