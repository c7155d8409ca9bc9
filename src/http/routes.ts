import { type Request, type Response, Router } from 'express';
import type { operations } from '../../generated/api.js';
import type { Database } from '../store/db.js';
import type { UseCaseDeps } from '../usecases/deps.js';
import { estimatePayoutFees } from '../usecases/estimatePayoutFees.js';
import { estimatePayrollFee } from '../usecases/estimatePayrollFee.js';
import { getPayrollRequest } from '../usecases/getPayrollRequest.js';
import type { Principal } from '../usecases/principal.js';
import { createPayrollRequest } from '../usecases/createPayrollRequest.js';
import { listAdminPayrollRequests, listCustomerPayrollRequests } from '../usecases/listPayrollRequests.js';
import { createPayout, getPayout } from '../usecases/payouts.js';
import { acceptPayrollQuote, cancelPayrollRequest, providePayrollQuote } from '../usecases/quoteLifecycle.js';
import { recordFxExchange } from '../usecases/recordFxExchange.js';
import { updateExchangeRate } from '../usecases/updateExchangeRate.js';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  listWebhookDeliveries,
  listWebhookEndpoints,
  retryWebhookDelivery,
} from '../usecases/webhookEndpoints.js';
import { sendData, sendError } from './envelope.js';
import { idempotent } from './idempotent.js';

type Body<Op extends keyof operations> = operations[Op] extends { requestBody: { content: { 'application/json': infer B } } } ? B : never;
type Query<Op extends keyof operations> = operations[Op]['parameters'] extends { query: infer Q } ? Q : never;

/** Set by the bearer security handler before any secured route runs. */
function callerOf(res: Response): Principal {
  return res.locals.principal as Principal;
}

/** One explicit, typed route per operationId. Input was validated against the spec already. */
export function routes(deps: UseCaseDeps, db: Database): Router {
  const router = Router();

  router.get('/healthz', (_req, res) => sendData(res, 200, { status: 'ok' as const }));

  router.get('/readyz', async (_req, res) => {
    try {
      await db.query('SELECT 1');
      sendData(res, 200, { status: 'ready' as const, database: db.kind });
    } catch {
      sendError(res, 'SERVICE_UNAVAILABLE', 'The database is not reachable');
    }
  });

  const post = (handler: Parameters<typeof idempotent>[2]) => idempotent(db, deps.clock, handler);
  type RequestParams = Request<{ requestId: string }>;

  router.post(
    '/v1/customers/payroll/estimate',
    post(async (req, res) => ({ status: 200, data: await estimatePayrollFee(deps, callerOf(res), req.body as Body<'estimatePayrollFee'>) })),
  );

  router.get('/v1/customers/payroll/requests', async (req, res) => {
    sendData(res, 200, await listCustomerPayrollRequests(deps, callerOf(res), req.query as Query<'listPayrollRequests'>));
  });

  router.post(
    '/v1/customers/payroll/requests',
    post(async (req, res) => ({ status: 201, data: await createPayrollRequest(deps, callerOf(res), req.body as Body<'createPayrollRequest'>) })),
  );

  router.post(
    '/v1/customers/payroll/requests/:requestId/accept',
    post(async (req, res) => ({ status: 200, data: await acceptPayrollQuote(deps, callerOf(res), (req as RequestParams).params.requestId) })),
  );

  router.post(
    '/v1/customers/payroll/requests/:requestId/cancel',
    post(async (req, res) => ({
      status: 200,
      data: await cancelPayrollRequest(deps, callerOf(res), (req as RequestParams).params.requestId, req.body as Body<'cancelPayrollRequest'>),
    })),
  );

  router.get('/v1/admin/payroll/requests', async (req, res) => {
    sendData(res, 200, await listAdminPayrollRequests(deps, callerOf(res), req.query as Query<'listAdminPayrollRequests'>));
  });

  router.post(
    '/v1/admin/payroll/requests/:requestId/quote',
    post(async (req, res) => ({
      status: 200,
      data: await providePayrollQuote(deps, callerOf(res), (req as RequestParams).params.requestId, req.body as Body<'providePayrollQuote'>),
    })),
  );

  router.post(
    '/v1/admin/payroll/requests/:requestId/fx-exchange',
    post(async (req, res) => ({
      status: 200,
      data: await recordFxExchange(deps, callerOf(res), (req as RequestParams).params.requestId, req.body as Body<'recordFxExchange'>),
    })),
  );

  router.post(
    '/v1/accounts/:accountId/payouts',
    post(async (req, res) => ({
      status: 201,
      data: await createPayout(deps, callerOf(res), (req as Request<{ accountId: string }>).params.accountId, req.body as Body<'createPayout'>),
    })),
  );


  router.get('/v1/customers/payroll/requests/:requestId', async (req: Request<{ requestId: string }>, res) => {
    sendData(res, 200, await getPayrollRequest(deps, callerOf(res), req.params.requestId));
  });


  router.get('/v1/accounts/:accountId/payouts/estimate', async (req: Request<{ accountId: string }>, res) => {
    const query = req.query as unknown as Query<'estimatePayoutFees'>;
    sendData(res, 200, await estimatePayoutFees(deps, callerOf(res), { accountId: req.params.accountId, ...query }));
  });

  router.put('/v1/admin/rates/:fromCurrencyCode/:toCurrencyCode', async (req: Request<{ fromCurrencyCode: string; toCurrencyCode: string }>, res) => {
    const pair = { from: req.params.fromCurrencyCode, to: req.params.toCurrencyCode };
    sendData(res, 200, await updateExchangeRate(deps, callerOf(res), pair, req.body as Body<'updateExchangeRate'>));
  });

  type EndpointParams = Request<{ endpointId: string; deliveryId: string }>;

  router.post(
    '/v1/customers/webhook-endpoints',
    post(async (req, res) => ({ status: 201, data: await createWebhookEndpoint(deps, callerOf(res), req.body as Body<'createWebhookEndpoint'>) })),
  );

  router.get('/v1/customers/webhook-endpoints', async (_req, res) => {
    sendData(res, 200, await listWebhookEndpoints(deps, callerOf(res)));
  });

  router.delete('/v1/customers/webhook-endpoints/:endpointId', async (req: Request<{ endpointId: string }>, res) => {
    sendData(res, 200, await deleteWebhookEndpoint(deps, callerOf(res), req.params.endpointId));
  });

  router.get('/v1/customers/webhook-endpoints/:endpointId/deliveries', async (req: Request<{ endpointId: string }>, res) => {
    sendData(res, 200, await listWebhookDeliveries(deps, callerOf(res), req.params.endpointId));
  });

  router.post(
    '/v1/customers/webhook-endpoints/:endpointId/deliveries/:deliveryId/retry',
    post(async (req, res) => {
      const { endpointId, deliveryId } = (req as EndpointParams).params;
      return { status: 200, data: await retryWebhookDelivery(deps, callerOf(res), endpointId, deliveryId) };
    }),
  );

  // After …/payouts/estimate, which the :payoutId pattern would otherwise swallow.
  router.get('/v1/accounts/:accountId/payouts/:payoutId', async (req: Request<{ accountId: string; payoutId: string }>, res) => {
    sendData(res, 200, await getPayout(deps, callerOf(res), req.params.accountId, req.params.payoutId));
  });

  return router;
}
