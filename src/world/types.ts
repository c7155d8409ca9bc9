/**
 * The World types, derived from the JSON schema by json-schema-to-ts: the schema is the only
 * place a field is written. Its enums are checked against generated/api.d.ts (schema/build.ts).
 */
import type { FromSchema } from 'json-schema-to-ts';
import type { worldSchema } from './schema/worldSchema.js';

/** A world file as the schema admits it (`active`, which has a default, stays optional). */
export type World = FromSchema<typeof worldSchema, { keepDefaultedPropertiesOptional: true }>;

export type WorldPayrollRequest = NonNullable<World['payrollRequests']>[number];
export type WorldAmountSplit = WorldPayrollRequest['amountSplitDetails'][number];
export type WorldTransfer = NonNullable<WorldPayrollRequest['transfers']>[number];
export type WorldFeeSchedule = World['fees']['processor'][number];
