// The server stubs: the handler table is typed by the spec's operations (checked by tsc --noEmit,
// which runs over test/), and the router refuses at start-up what the types could not see.
import { describe, expect, it } from 'vitest';
import { allHandlers } from '../../../src/http/handlers/index.js';
import { operationHandlers } from '../../../src/http/operationRouter.js';
import type { Handler, Handlers, OperationId } from '../../../src/http/operations.js';
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

describe('mounting from the spec', () => {
  // The handlers are only looked up here, never run: no use case reaches these deps.
  const deps = {} as UseCaseDeps;
  const { resolver } = operationHandlers(allHandlers(deps));
  const route = (method: string, path: string) => ({ basePath: '', expressRoute: path, openApiRoute: path, method, pathParams: [] });
  const spec = (operation: Record<string, unknown>) => ({
    openapi: '3.1.0' as const,
    info: { title: 't', summary: 't', version: '1' },
    security: [{ bearerAuth: [] }],
    components: {},
    webhooks: {},
    paths: { '/x': { post: { responses: { '200': { description: 'ok' }, '401': { description: 'no' } }, ...operation } } },
  });

  it('finds each handler by operationId', () => {
    expect(typeof resolver('', route('POST', '/x'), spec({ operationId: 'acceptPayrollQuote' }))).toBe('function');
  });

  it('refuses an operation without a handler, or a path the spec does not have', () => {
    expect(() => resolver('', route('POST', '/x'), spec({ operationId: 'launchRocket' }))).toThrow('no handler for POST /x (operationId launchRocket)');
    expect(() => resolver('', route('POST', '/y'), spec({ operationId: 'acceptPayrollQuote' }))).toThrow('no handler for POST /y');
  });

  it('refuses security the types do not expect: a caller exactly where 401 is listed', () => {
    expect(() => resolver('', route('POST', '/x'), spec({ operationId: 'acceptPayrollQuote', security: [] }))).toThrow('must list 401');
    const withoutUnauthorized = { operationId: 'acceptPayrollQuote', responses: { '200': { description: 'ok' } } };
    expect(() => resolver('', route('POST', '/x'), spec(withoutUnauthorized))).toThrow('must list 401');
  });

  it('refuses an Idempotency-Key on an operation without a caller to scope it', () => {
    const publicIdempotent = {
      operationId: 'getHealth',
      security: [],
      responses: { '200': { description: 'ok' } },
      parameters: [{ in: 'header', name: 'Idempotency-Key' }],
    };
    expect(() => resolver('', route('POST', '/x'), spec(publicIdempotent))).toThrow('needs security');
  });
});
