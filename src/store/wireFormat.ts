import type { components } from '../../generated/api.js';
import { iso, json, jsonObject, type JsonFields, orAbsent, orNull, quoted, text } from './jsonSql.js';

type Schemas = components['schemas'];

/**
 * The JSON each split and transfer keeps on its row (`api_json`), which the request's read joins
 * and the batch rail copies into transfer events set-based. Its writers are the trigger functions
 * amount_split_api_json() and transfer_api_json() (the triggers themselves came with the stored JSON):
 * their bodies are generated here from field tables keyed by the spec's schemas, and written into a
 * migration by `npm run migration:wire-format` (store/derivedObjects.ts), so these tables are the one
 * source of the format in SQL; a test fails while the migrations define another text.
 * `row` is the alias the table reads: NEW in a trigger, a table alias in a set-based statement.
 */

/** A split as AmountSplitDetail: every field present, null until it applies. */
const splitFields = (row: string) =>
  ({
    id: quoted(`${row}.id`),
    beneficiaryId: quoted(`${row}.beneficiary_id`),
    // The snapshot as written at creation (its type is the view's BeneficiarySnapshot).
    beneficiarySnapshot: json(`${row}.beneficiary_snapshot`),
    amountCurrencyType: text(`${row}.amount_currency_type`),
    sourceCurrencyAmount: quoted(`${row}.source_currency_amount`),
    amount: quoted(`${row}.amount`),
    quotedSourceCurrencyAmount: orNull(quoted(`${row}.quoted_source_currency_amount`)),
    quotedAmount: orNull(quoted(`${row}.quoted_amount`)),
    returnedSourceCurrencyAmount: orNull(quoted(`${row}.returned_source_currency_amount`)),
    purposeCode: text(`${row}.purpose_code`),
    payoutTransferId: orNull(quoted(`${row}.payout_transfer_id`)),
    createdAt: quoted(iso(`${row}.created_at`)),
    payrollRequestId: quoted(`${row}.payroll_request_id`),
  }) satisfies JsonFields<Schemas['AmountSplitDetail']>;

/**
 * The payout of split `split` (NULL while it has none): a payout names its split
 * (transfers.amount_split_id, one payout per split: the payout link on the payout), which is how the FX record
 * links them; it writes no split.
 */
const payoutOf = (split: string): string => `(SELECT p.id FROM transfers p WHERE p.amount_split_id = ${split}.id)`;

/** A split's payoutTransferId: its own column where a release before the link moved to the payout set it (the same payout), else its payout's. */
export const payoutTransferIdOf = (split: string): string => `COALESCE(${split}.payout_transfer_id, ${payoutOf(split)})`;

/** The text a split's stored JSON has around a payoutTransferId its column leaves null (splitFields' order: createdAt follows). */
const UNLINKED = `,"payoutTransferId":null,"createdAt":`;

/**
 * A split `split` as AmountSplitDetail, as every answer, page and event shows it: the JSON its row
 * keeps (written from its columns), with its payout's id spliced in where its column is null. The
 * text replaced occurs once in the row's JSON: the split's only free texts, its snapshot (jsonb
 * text, whose keys are followed by `": "`) and purpose code, are JSON with their quotes escaped.
 */
const splitJson = (split: string): string =>
  `CASE WHEN ${split}.payout_transfer_id IS NOT NULL THEN ${split}.api_json
        ELSE COALESCE(replace(${split}.api_json, '${UNLINKED}', ',"payoutTransferId":"' || ${payoutOf(split)} || '","createdAt":'), ${split}.api_json) END`;

/**
 * The bytes (UTF-8) of splitJson(split), without writing it: a payout's id spliced in where the
 * stored JSON has null is a quoted uuid (38 bytes) in place of `null` (4).
 */
export const splitJsonBytes = (split: string): string =>
  `octet_length(${split}.api_json) + CASE WHEN ${split}.payout_transfer_id IS NULL AND EXISTS ${payoutOf(split)} THEN 34 ELSE 0 END`;

/** An item of `table` aliased `row` as answers show it: a transfer's JSON as its row keeps it, a split's with its payout. */
export const itemJson = (table: 'amount_splits' | 'transfers', row: string): string => (table === 'amount_splits' ? splitJson(row) : `${row}.api_json`);

/**
 * A page of a request's items as answers show them (`api_json`, with their `position`): up to
 * `limit` after `afterPosition`, read through the request's index in position order. The arguments
 * are SQL expressions (parameters, a column).
 */
export const itemsPageSql = (table: 'amount_splits' | 'transfers', page: { requestId: string; afterPosition: string; limit: string }): string =>
  `SELECT ${itemJson(table, 'x')} AS api_json, x.position FROM ${table} x
    WHERE x.payroll_request_id = ${page.requestId} AND x.position > ${page.afterPosition} ORDER BY x.position LIMIT ${page.limit}`;

/** Rule 4: a payout's instruction is its split (the beneficiary's names as they were) with the amount the payout pays. */
const payoutInstructionFields = (split: string, amount: string) =>
  ({
    id: quoted(`${split}.id`),
    beneficiaryId: quoted(`${split}.beneficiary_id`),
    beneficiarySnapshot: json(
      jsonObject({
        id: json(`${split}.beneficiary_snapshot->'id'`),
        firstName: json(`${split}.beneficiary_snapshot->'firstName'`),
        lastName: json(`${split}.beneficiary_snapshot->'lastName'`),
        displayName: json(`${split}.beneficiary_snapshot->'displayName'`),
      } satisfies JsonFields<Schemas['PayoutBeneficiarySnapshot']>),
    ),
    sourceCurrencyAmount: quoted(`${split}.source_currency_amount`),
    amount: quoted(amount),
  }) satisfies JsonFields<Schemas['PayoutInstruction']>;

/**
 * The instruction of a payout of split `split` paying `amount`, for a statement that writes payouts
 * from their splits: the trigger then keeps it instead of looking the split up again, row by row.
 */
export const payoutInstructionJson = (split: string, amount: string): string => jsonObject(payoutInstructionFields(split, amount));

/** The instruction of transfer `row` from its split (NULL when it has none, or its split is not written yet). */
const payoutInstructionOf = (row: string): string =>
  `(SELECT ${payoutInstructionJson('sp', `${row}.amount`)}
      FROM amount_splits sp WHERE sp.id = ${row}.amount_split_id AND sp.payroll_request_id = ${row}.payroll_request_id)`;

/** A transfer as Transfer: optional fields absent until they apply; its instruction is kept on the row (payout_instruction_json). */
const transferFields = (row: string) =>
  ({
    id: quoted(`${row}.id`),
    payrollRequestId: quoted(`${row}.payroll_request_id`),
    transferType: text(`${row}.transfer_type`),
    status: text(`${row}.status`),
    externalId: orAbsent(text(`${row}.external_id`)),
    amount: quoted(`${row}.amount`),
    currencyCode: text(`${row}.currency_code`),
    feeDetails: orAbsent(
      json(
        `CASE WHEN ${row}.fee_id IS NOT NULL THEN ${jsonObject({
          id: quoted(`${row}.fee_id`),
          amount: quoted(`${row}.fee_amount`),
          finalInternalFee: quoted(`${row}.final_internal_fee`),
        } satisfies JsonFields<Schemas['FeeDetails']>)} END`,
      ),
    ),
    payoutInstruction: orAbsent(json(`${row}.payout_instruction_json`)),
    executedAt: orAbsent(quoted(iso(`${row}.executed_at`))),
    completedAt: orAbsent(quoted(iso(`${row}.completed_at`))),
    failureReason: orAbsent(text(`${row}.failure_reason`)),
    bankBooking: orAbsent(json(`${row}.bank_booking::text`)),
    bankReturn: orAbsent(json(`${row}.bank_return::text`)),
    createdAt: quoted(iso(`${row}.created_at`)),
  }) satisfies JsonFields<Schemas['Transfer']>;

/**
 * A transfer as it stood when the bank took it, before the bank's id came back: the row's JSON
 * after a submission's update, with status INITIATED and no externalId. A batch records INITIATED
 * and PROCESSING in one row update; this is the payload of the first of those two events.
 */
export const initiatedTransferJson = (row: string): string =>
  jsonObject({ ...transferFields(row), status: text(`'INITIATED'`), externalId: orAbsent(text('NULL::text')) } satisfies JsonFields<Schemas['Transfer']>);

/** A trigger function whose body is derived from the field tables, and which of its rows it wrote otherwise. */
export interface DerivedFunction {
  /** Its signature, as the stored JSON's triggers call it. */
  signature: string;
  /** Its plpgsql body. */
  body: string;
  /** The table whose rows it writes (keyed by `id`). */
  table: 'amount_splits' | 'transfers';
  /** What, set on a row of `table` aliased `x`, makes the trigger write it again. */
  rewrite: string;
  /** True for a row `x` whose stored JSON is not what `body` writes. */
  stale: string;
}

const GENERATED = '-- Generated from src/store/wireFormat.ts (npm run migration:wire-format): change it there, not here.';

const AMOUNT_SPLIT_API_JSON: DerivedFunction = {
  signature: 'amount_split_api_json()',
  body: `
${GENERATED}
BEGIN
  NEW.api_json := ${jsonObject(splitFields('NEW'))};
  RETURN NEW;
END
`,
  table: 'amount_splits',
  rewrite: 'api_json = NULL',
  stale: `x.api_json IS DISTINCT FROM ${jsonObject(splitFields('x'))}`,
};

/**
 * A payout's instruction never changes once written, so it is looked up only when the row is
 * inserted without one (a statement that writes payouts from their splits gives it), has none yet,
 * or its split or amount change. A transfer written before its split (the world loader writes
 * transfers first) gets it on its next update; setting it NULL asks for it again, and so does the
 * maintenance rewrite for a row whose instruction differs from its split's (store/derivedObjects.ts).
 */
const TRANSFER_API_JSON: DerivedFunction = {
  signature: 'transfer_api_json()',
  body: `
${GENERATED}
BEGIN
  IF NEW.amount_split_id IS NULL THEN
    NEW.payout_instruction_json := NULL;
  ELSIF NEW.payout_instruction_json IS NULL
     OR (TG_OP = 'UPDATE' AND (NEW.amount_split_id IS DISTINCT FROM OLD.amount_split_id OR NEW.amount <> OLD.amount)) THEN
    NEW.payout_instruction_json := ${payoutInstructionOf('NEW')};
  END IF;
  NEW.api_json := ${jsonObject(transferFields('NEW'))};
  RETURN NEW;
END
`,
  table: 'transfers',
  rewrite: 'payout_instruction_json = NULL',
  stale: `x.payout_instruction_json IS DISTINCT FROM ${payoutInstructionOf('x')}
       OR x.api_json IS DISTINCT FROM ${jsonObject(transferFields('x'))}`,
};

/** Splits first (a transfer's instruction reads its split's columns, not its JSON, so the order is not a matter of correctness). */
export const DERIVED_FUNCTIONS: readonly DerivedFunction[] = [AMOUNT_SPLIT_API_JSON, TRANSFER_API_JSON];
