/**
 * A payroll request's transfers, and the links between its amount splits and their
 * BANK_TO_BENEFICIARY payouts: `amountSplitDetails[].payoutTransferId` and/or
 * `transfers[].amountSplitId`; either is enough, and when both are given they must agree.
 */
import { requireCurrency, type WorldIndex } from './referenceIndex.js';
import type { WorldPayrollRequest, WorldTransfer } from './types.js';
import { fail, uniqueIndex, type At, type PathSegment } from './validationError.js';

interface Links {
  request: WorldPayrollRequest;
  at: At;
  /** Split id → position in amountSplitDetails. */
  splits: ReadonlyMap<string, number>;
  transfers: readonly WorldTransfer[];
  /** Transfer id → position in transfers. */
  transferIndex: ReadonlyMap<string, number>;
  /** Transfer id → the split its amountSplitId names. */
  splitOfTransfer: Map<string, string>;
}

export function checkPayoutLinks(
  request: WorldPayrollRequest,
  at: At,
  index: WorldIndex,
  splits: ReadonlyMap<string, number>,
  seenTransferIds: Map<string, PathSegment[]>,
): void {
  const transfers = request.transfers ?? [];
  const transferIndex = uniqueIndex(
    transfers,
    (t) => t.id,
    (t) => at('transfers', t, 'id'),
    'transfer id',
    seenTransferIds,
  );
  const links: Links = { request, at, splits, transfers, transferIndex, splitOfTransfer: new Map() };
  transfers.forEach((transfer, t) => checkTransfer(links, index, transfer, t));
  checkPayoutTransferIds(links);
  checkTransfersNameTheirSplits(links);
}

function checkTransfer(links: Links, index: WorldIndex, transfer: WorldTransfer, t: number): void {
  const { at, splits, splitOfTransfer } = links;
  requireCurrency(index, transfer.currencyCode, at('transfers', t, 'currencyCode'));
  const splitId = transfer.amountSplitId;
  if (splitId !== undefined) {
    const segments = at('transfers', t, 'amountSplitId');
    if (transfer.transferType !== 'BANK_TO_BENEFICIARY') fail(segments, 'is only allowed on a BANK_TO_BENEFICIARY transfer');
    if (!splits.has(splitId)) fail(segments, `unknown amount split ${splitId} (not in this request)`);
    const other = [...splitOfTransfer.entries()].find(([, linked]) => linked === splitId);
    if (other) fail(segments, `amount split ${splitId} already has payout transfer ${other[0]}`);
    splitOfTransfer.set(transfer.id, splitId);
  }
  if (transfer.status === 'FAILED' && transfer.failureReason === undefined) {
    fail(at('transfers', t, 'failureReason'), 'is required when status is FAILED');
  }
}

/** Each payoutTransferId names a payout of this request that pays no other split. */
function checkPayoutTransferIds({ request, at, transfers, transferIndex, splitOfTransfer }: Links): void {
  const seenPayoutTransfers = new Map<string, number>();
  request.amountSplitDetails.forEach((split, s) => {
    const transferId = split.payoutTransferId;
    if (transferId === undefined) return;
    const segments = at('amountSplitDetails', s, 'payoutTransferId');
    const t = transferIndex.get(transferId);
    if (t === undefined) fail(segments, `unknown transfer ${transferId} (not in this request)`);
    if (transfers[t]?.transferType !== 'BANK_TO_BENEFICIARY') fail(segments, `transfer ${transferId} is not a BANK_TO_BENEFICIARY transfer`);
    const linked = splitOfTransfer.get(transferId);
    if (linked !== undefined && linked !== split.id) fail(segments, `transfer ${transferId} pays amount split ${linked}, not this one`);
    const earlier = seenPayoutTransfers.get(transferId);
    if (earlier !== undefined) fail(segments, `transfer ${transferId} is already the payout of amountSplitDetails[${earlier}]`);
    seenPayoutTransfers.set(transferId, s);
  });
}

/**
 * A split pointing at a transfer whose own amountSplitId names another split was caught
 * above; a transfer naming a split that points elsewhere is caught here.
 */
function checkTransfersNameTheirSplits({ request, at, splits, transferIndex, splitOfTransfer }: Links): void {
  for (const [transferId, splitId] of splitOfTransfer) {
    const split = request.amountSplitDetails[splits.get(splitId) ?? -1];
    if (split?.payoutTransferId !== undefined && split.payoutTransferId !== transferId) {
      fail(
        at('transfers', transferIndex.get(transferId) ?? -1, 'amountSplitId'),
        `amount split ${splitId} names payout transfer ${split.payoutTransferId}, not this one`,
      );
    }
  }
}
