import { type Request, type Response, Router } from 'express';
import type { operations } from '../../generated/api.js';
import type { Database } from '../store/db.js';
import type { UseCaseDeps } from '../usecases/deps.js';
import { estimatePayoutFees } from '../usecases/estimatePayoutFees.js';
import { estimatePayrollFee } from '../usecases/estimatePayrollFee.js';
import { getPayrollRequest } from '../usecases/getPayrollRequest.js';
import type { Principal } from '../usecases/principal.js';
import { updateExchangeRate } from '../usecases/updateExchangeRate.js';
import { sendData, sendError } from './envelope.js';

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

  router.get('/v1/customers/payroll/requests/:requestId', async (req: Request<{ requestId: string }>, res) => {
    sendData(res, 200, await getPayrollRequest(deps, callerOf(res), req.params.requestId));
  });

  router.post('/v1/customers/payroll/estimate', async (req, res) => {
    sendData(res, 200, await estimatePayrollFee(deps, callerOf(res), req.body as Body<'estimatePayrollFee'>));
  });

  router.get('/v1/accounts/:accountId/payouts/estimate', async (req: Request<{ accountId: string }>, res) => {
    const query = req.query as unknown as Query<'estimatePayoutFees'>;
    sendData(res, 200, await estimatePayoutFees(deps, callerOf(res), { accountId: req.params.accountId, ...query }));
  });

  router.put('/v1/admin/rates/:fromCurrencyCode/:toCurrencyCode', async (req: Request<{ fromCurrencyCode: string; toCurrencyCode: string }>, res) => {
    const pair = { from: req.params.fromCurrencyCode, to: req.params.toCurrencyCode };
    sendData(res, 200, await updateExchangeRate(deps, callerOf(res), pair, req.body as Body<'updateExchangeRate'>));
  });

  return router;
}
