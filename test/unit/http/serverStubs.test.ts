// The server stubs: the handler table is typed by the spec's operations (checked by tsc --noEmit,
// which runs over test/), and the router refuses at start-up what the types could not see.
import { describe, expect, it } from 'vitest';
import { allHandlers } from '../../../src/http/handlers/index.js';
import { bindOperations } from '../../../src/http/pipeline/operationRouter.js';
import { type ApiDoc, SpecRouter, specRouter } from '../../../src/http/pipeline/specRoutes.js';
import type { Handler, Handlers, OperationId } from '../../../src/http/pipeline/operations.js';
import type { UseCaseDeps } from '../../../src/usecases/deps.js';

describe('handler table types (checked by tsc --noEmit)', () => {
  it('rejects a missing handler and answers the spec does not allow', () => {
    const never = (withoutHealth: Omit<Handlers, 'getHealth'>) => {
      // @ts-expect-error -- getHealth is an operation of the spec: the table must have its handler
      const missing: Handlers = withoutHealth;
      // @ts-expect-error -- getHealth answers 200 only
      const wrongStatus: Handler<'getHealth'> = async () => ({ status: 201, data: { status: 'ok' } });
      // @ts-expect-error -- errors are thrown (DomainError), never returned as a status
      const errorStatus: Handler<'getPayrollRequest'> = async () => ({ status: 404, data: null });
      // @ts-expect-error -- Health.status is the constant 'ok'
      const wrongShape: Handler<'getHealth'> = async () => ({ status: 200, data: { status: 'fine' } });
      // @ts-expect-error -- data is the envelope's data, not the envelope
      const envelope: Handler<'getHealth'> = async () => ({ status: 200, data: { success: true, data: { status: 'ok' } } });
      // @ts-expect-error -- getPayrollRequest's path has a requestId, no payoutId
      const unknownParam: Handler<'getPayrollRequest'> = async ({ params }) => ({ status: 200, data: params.payoutId });
      const untypedBody: Handler<'cancelPayrollRequest'> = async ({ body }) => {
        // @ts-expect-error -- the cancel body is { reason: string }
        const amount: number = body.reason;
        throw new Error(`not run: ${amount}`);
      };
      // @ts-expect-error -- the probes have no authenticated caller
      const publicCaller: Handler<'getHealth'> = async ({ caller }) => ({ status: 200, data: { status: caller.role } });
      // @ts-expect-error -- webhooks are operations the service sends, not serves
      const webhook: OperationId = 'payrollRequestStatusChanged';
      const extra = {
        // @ts-expect-error -- no handler for an operation the spec does not have
        getEverything: async () => ({ status: 200, data: {} }),
      } satisfies Partial<Handlers>;
      return [missing, wrongStatus, errorStatus, wrongShape, envelope, unknownParam, untypedBody, publicCaller, webhook, extra];
    };
    expect(typeof never).toBe('function');
  });
});

describe('binding from the spec', () => {
  // The handlers are only looked up here, never run: no use case reaches these deps.
  const table = allHandlers({} as UseCaseDeps);
  const spec = (operation: Record<string, unknown>) =>
    ({
      openapi: '3.1.0' as const,
      info: { title: 't', version: '1' },
      security: [{ bearerAuth: [] }],
      components: {},
      paths: { '/x': { post: { responses: { '200': { description: 'ok' }, '401': { description: 'no' } }, ...operation } } },
    }) as unknown as ApiDoc;
  const bound = (apiDoc: ApiDoc) => bindOperations(table, apiDoc, new SpecRouter(apiDoc));

  it('finds each handler by operationId', () => {
    expect(typeof bound(spec({ operationId: 'acceptPayrollQuote' })).get('/x')?.post).toBe('function');
  });

  it('binds every operation of the spec', async () => {
    const { apiDoc, router } = await specRouter();
    const operations = bindOperations(table, apiDoc, router);
    for (const route of router.routes) {
      for (const method of Object.keys(route.operationIds) as Array<keyof typeof route.operationIds>) {
        expect(typeof operations.get(route.path)?.[method], `${method} ${route.path}`).toBe('function');
      }
    }
  });

  it('refuses an operation without a handler', () => {
    expect(() => bound(spec({ operationId: 'launchRocket' }))).toThrow(Error);
    expect(() => bound(spec({}))).toThrow(Error);
  });

  it('refuses security the types do not expect: a caller exactly where 401 is listed', () => {
    expect(() => bound(spec({ operationId: 'acceptPayrollQuote', security: [] }))).toThrow(Error);
    expect(() => bound(spec({ operationId: 'acceptPayrollQuote', responses: { '200': { description: 'ok' } } }))).toThrow(Error);
  });

  it('refuses an Idempotency-Key on an operation without a caller to scope it', () => {
    const publicIdempotent = {
      operationId: 'getHealth',
      security: [],
      responses: { '200': { description: 'ok' } },
      parameters: [{ in: 'header', name: 'Idempotency-Key' }],
    };
    expect(() => bound(spec(publicIdempotent))).toThrow(Error);
  });
});
