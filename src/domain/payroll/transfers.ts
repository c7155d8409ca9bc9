import type { components } from '../../../generated/api.js';

/** The spec's transfer enums, so that a type or status the spec adds or drops breaks the build. */
export type TransferType = components['schemas']['TransferType'];
export type TransferStatus = components['schemas']['TransferStatus'];

/** Every movement the worker hands to the rails: the payroll transfer types and the single payout. */
export type TransferKind = TransferType | 'PAYOUT';

/** The statuses a movement is still open in: the worker moves it on from each. */
export type OpenTransferStatus = Extract<TransferStatus, 'PENDING' | 'INITIATED' | 'PROCESSING'>;

/** How a movement ends at the rails. */
export type TransferOutcome = Extract<TransferStatus, 'COMPLETED' | 'FAILED'>;
