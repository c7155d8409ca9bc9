import { tracer } from '../observability/telemetry.js';
import type { BatchRails } from './bank/batchRails.js';
import type { PaymentRails } from './processor/rails.js';
import type { WebhookSender } from './webhooks/webhookSender.js';

/** The rails with a span around every call (wired only when tracing is on). */
export function tracedRails(rails: PaymentRails): PaymentRails {
  return {
    submit: (instruction) =>
      tracer.span('rails submit', { 'payroll.transfer_id': instruction.transferId, 'payroll.transfer_kind': instruction.kind }, () =>
        rails.submit(instruction),
      ),
    status: (transferId) => tracer.span('rails status', { 'payroll.transfer_id': transferId }, () => rails.status(transferId)),
  };
}

/** The bank's batch rail with a span around every submission and status read. */
export function tracedBatchRails(rails: BatchRails): BatchRails {
  return {
    submitBatch: (batch) =>
      tracer.span('rails submitBatch', { 'payroll.batch_id': batch.batchId, 'payroll.batch_items': batch.items.length }, () => rails.submitBatch(batch)),
    batchStatus: (batchId) => tracer.span('rails batchStatus', { 'payroll.batch_id': batchId }, () => rails.batchStatus(batchId)),
  };
}

/** The webhook sender with a span around every delivery attempt (the POST itself is the http instrumentation's child span). */
export function tracedWebhookSender(sender: WebhookSender): WebhookSender {
  return {
    send: (request) => tracer.span('webhook send', { 'server.address': new URL(request.url).host }, () => sender.send(request)),
  };
}
