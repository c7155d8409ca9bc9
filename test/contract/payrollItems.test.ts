import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ids } from '../fixtures/world.js';
import { type TestServer, startTestServer } from '../support/server.js';

let server: TestServer;
beforeAll(async () => (server = await startTestServer()));
afterAll(() => server.close());

const getRequest = async (requestId: string) =>
  (await server.as(ids.userA).GET('/v1/customers/payroll/requests/{requestId}', { params: { path: { requestId } } })).data!.data;

describe('GET /v1/customers/payroll/requests/{requestId}/splits and /transfers', () => {
  it('pages through the splits and the transfers exactly as the request shows them, in order', async () => {
    const request = await getRequest(ids.requestACompleted);
    const splits: unknown[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 20; page++) {
      const { data, response } = await server.as(ids.userA).GET('/v1/customers/payroll/requests/{requestId}/splits', {
        params: { path: { requestId: ids.requestACompleted }, query: { limit: 1, ...(cursor && { cursor }) } },
      });
      expect(response.status).toBe(200);
      splits.push(...data!.data.items);
      expect(data!.data.items.length).toBeLessThanOrEqual(1);
      if (!data!.data.nextCursor) break;
      cursor = data!.data.nextCursor;
    }
    expect(splits).toEqual(request.amountSplitDetails);
    const transfers = await server.as(ids.userA).GET('/v1/customers/payroll/requests/{requestId}/transfers', {
      params: { path: { requestId: ids.requestACompleted }, query: { limit: 2 } },
    });
    expect(transfers.data!.data.items).toEqual(request.transfers.slice(0, 2));
    expect(transfers.data!.data.nextCursor === null).toBe(request.transfers.length <= 2);
    const rest = await server.as(ids.admin).GET('/v1/customers/payroll/requests/{requestId}/transfers', {
      params: { path: { requestId: ids.requestACompleted }, query: { limit: 1000, cursor: transfers.data!.data.nextCursor! } },
    });
    expect(rest.data!.data).toEqual({ items: request.transfers.slice(2), nextCursor: null });
  });

  it('an empty page for a request without transfers; 404 for another customer; 400 for a cursor of the other list', async () => {
    const none = await server.as(ids.userB).GET('/v1/customers/payroll/requests/{requestId}/transfers', {
      params: { path: { requestId: ids.requestBPending } },
    });
    expect(none.data!.data).toEqual({ items: [], nextCursor: null });
    const foreign = await server.as(ids.userA).GET('/v1/customers/payroll/requests/{requestId}/splits', {
      params: { path: { requestId: ids.requestBPending } },
    });
    expect(foreign.response.status).toBe(404);
    expect(foreign.error?.error.code).toBe('NOT_FOUND');
    const splits = await server.as(ids.userA).GET('/v1/customers/payroll/requests/{requestId}/splits', {
      params: { path: { requestId: ids.requestACompleted }, query: { limit: 1 } },
    });
    const wrong = await server.as(ids.userA).GET('/v1/customers/payroll/requests/{requestId}/transfers', {
      params: { path: { requestId: ids.requestACompleted }, query: { cursor: splits.data!.data.nextCursor! } },
    });
    expect(wrong.response.status).toBe(400);
    const junk = await server.as(ids.userA).GET('/v1/customers/payroll/requests/{requestId}/transfers', {
      params: { path: { requestId: ids.requestACompleted }, query: { cursor: 'not-a-cursor' } },
    });
    expect(junk.response.status).toBe(400);
    expect(junk.error?.error.code).toBe('VALIDATION_ERROR');
  });
});
