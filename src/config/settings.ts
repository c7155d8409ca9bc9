/**
 * Every setting the service reads from its environment, declared once: its kind (and the range or
 * the values it accepts), its default, and its line of docs/operations.md's settings table, which
 * `npm run -s docs:settings` writes from here in this order. loadConfig (src/config/config.ts) reads
 * each value through its declaration; the groups, by concern, are in src/config/settings/.
 */
import { BANK_SETTINGS } from './settings/bank.js';
import { CALENDAR_SETTINGS } from './settings/calendar.js';
import { DATABASE_SETTINGS } from './settings/database.js';
import { PRICING_SETTINGS } from './settings/pricing.js';
import { SECURITY_SETTINGS } from './settings/security.js';
import { SERVER_SETTINGS } from './settings/server.js';
import { WORKER_SETTINGS } from './settings/worker.js';
import { SCREENING_SETTINGS } from './settings/screening.js';

export { DEVELOPMENT_JWT_SECRET } from './settings/security.js';
export { DEVELOPMENT_FEE_HASH_SECRET } from './settings/pricing.js';
export { DEMO_WORLD_FILE } from './settings/database.js';

export const SETTINGS = {
  ...SERVER_SETTINGS,
  ...DATABASE_SETTINGS,
  ...SECURITY_SETTINGS,
  ...PRICING_SETTINGS,
  ...BANK_SETTINGS,
  ...CALENDAR_SETTINGS,
  ...WORKER_SETTINGS,
  ...SCREENING_SETTINGS,
};
