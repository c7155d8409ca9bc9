/**
 * The package's entry point on Node (its `node` export condition, and `payroll-fee-service/node`):
 * everything the runtime-neutral entry point has, and the synchronous webhook checks, which need
 * Node's `crypto`.
 */
export * from './index.js';
export { constructEventSync, verifyWebhook } from './webhooksNode.js';
