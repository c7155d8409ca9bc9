import type { WebhookSender } from '../../adapters/webhooks/webhookSender.js';
import { signWebhook } from '../../domain/webhooks/webhookSignature.js';
import { FAILING_AFTER_CONSECUTIVE_FAILURES, WEBHOOK_RETRY_WINDOW_MS, nextAttemptDelayMs } from '../../domain/webhooks/webhooks.js';
import { metrics, tracer } from '../../observability/telemetry.js';
import type { Database } from '../../store/database/db.js';
import { claimDueDeliveries, recordAttempt } from '../../store/webhooks/webhooks.js';

export interface DispatchDeps {
  db: Database;
  clock: () => Date;
  webhooks: WebhookSender;
  leaseMs: number;
}

/**
 * Delivers the due webhook deliveries: signed POSTs, one attempt each, recorded with status code
 * and timing; failures are rescheduled with backoff and jitter until the 3-day window closes.
 * A worker that dies mid-delivery loses its lease and the delivery is attempted again: receivers
 * dedupe by event id.
 */
export async function deliverDueWebhooks(deps: DispatchDeps, limit = 20): Promise<number> {
  const now = deps.clock();
  const due = await deps.db.transaction((tx) => claimDueDeliveries(tx, now, new Date(now.getTime() + deps.leaseMs), limit));
  await Promise.all(
    due.map((delivery) =>
      tracer.span('usecase deliverWebhook', { 'payroll.event_id': delivery.eventId }, async () => {
        const attemptedAt = deps.clock();
        const result = await deps.webhooks.send({
          url: delivery.url,
          body: delivery.body,
          headers: {
            'Content-Type': 'application/json',
            'Payroll-Signature': signWebhook(delivery.body, delivery.secret, attemptedAt),
            'Payroll-Event-Id': delivery.eventId,
            'User-Agent': 'payroll-fee-service-webhooks/1',
          },
        });
        const succeeded = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
        metrics.webhookAttempt(succeeded, delivery.attemptCount > 0);
        const retryAt = new Date(attemptedAt.getTime() + nextAttemptDelayMs(delivery.attemptCount + 1));
        const withinWindow = retryAt.getTime() - delivery.createdAt.getTime() <= WEBHOOK_RETRY_WINDOW_MS;
        await deps.db.transaction((tx) =>
          recordAttempt(tx, delivery, { ...result, attemptedAt, succeeded, nextAttemptAt: withinWindow ? retryAt : null }, FAILING_AFTER_CONSECUTIVE_FAILURES),
        );
      }),
    ),
  );
  return due.length;
}
