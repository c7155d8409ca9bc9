// Every list takes `limit` and `cursor` the same way (the introduction's "Query strings"): an
// operation whose answer is a list of `items` declares both query parameters and answers the
// `nextCursor` to pass back as `cursor`. Read from the bundled spec, so a list added without them
// fails here. (listAccounts answers two named arrays of the customer's accounts, not a page.)
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../reliability/spec.js';

type Schema = { type?: string | string[]; properties?: Record<string, Schema>; minimum?: number; maximum?: number };
type Operation = {
  operationId: string;
  parameters?: { name: string; in: string; schema?: Schema }[];
  responses: Record<string, { content?: Record<string, { schema?: Schema }> }>;
};

describe('list operations', () => {
  it('take limit and cursor and answer nextCursor, every one', async () => {
    const raw = (await loadSpec()).raw as unknown as { paths: Record<string, { parameters?: Operation['parameters']; get?: Operation }> };
    const lists: string[] = [];
    for (const pathItem of Object.values(raw.paths)) {
      const operation = pathItem.get;
      const data = operation?.responses['200']?.content?.['application/json']?.schema?.properties?.data;
      if (!operation || data?.properties?.items?.type !== 'array') continue;
      lists.push(operation.operationId);
      const query = new Map([...(pathItem.parameters ?? []), ...(operation.parameters ?? [])].filter((p) => p.in === 'query').map((p) => [p.name, p.schema]));
      expect(query.get('limit'), operation.operationId).toMatchObject({ type: 'integer', minimum: 1 });
      expect(query.get('cursor'), operation.operationId).toMatchObject({ type: 'string' });
      // A string, null on the last page; the events feed's is always a string (with hasMore: polled past its end).
      expect([data.properties.nextCursor?.type].flat(), operation.operationId).toContain('string');
    }
    expect(lists).toEqual(expect.arrayContaining(['listApiKeys', 'listWebhookEndpoints', 'listWebhookDeliveries', 'listExchangeRates', 'listBeneficiaries']));
  });
});
