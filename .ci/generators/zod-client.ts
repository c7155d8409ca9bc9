// openapi-zod-client's Zodios client of the bundled spec (npm run check:generators): importing it
// builds every zod schema (a webhook event's `type`, written as a one-value enum beside its
// `const`, becomes the literal its discriminated union needs), and the call's answer is checked
// against the generated schemas before it is returned. It types the JSON form of an operation
// only; the CSV form goes through the other generators' clients.
import { createApiClient, schemas } from './generated/zod-client/api.js';
import { BASE_URL, JSON_ESTIMATE, TOKEN, expectEstimate } from './shared.js';

const api = createApiClient(BASE_URL, { axiosConfig: { headers: { Authorization: `Bearer ${TOKEN}` } } });

const estimate = await api.estimatePayrollFee(JSON_ESTIMATE);
expectEstimate('openapi-zod-client', 'JSON', 200, estimate);

const event = schemas.WebhookEvent.safeParse({ type: 'not.an.event' });
if (event.success) throw new Error('openapi-zod-client: WebhookEvent accepted an unknown event type');
console.log('openapi-zod-client: WebhookEvent refuses an unknown type');
