/**
 * The baseline of `npm run bench`: the stack's physical limit on this machine. A bare Express 5
 * app in its own process that parses the same JSON body as the estimate and answers with the same
 * envelope the real server gave for it: no validation, no authentication, no database, no logging.
 *
 * Env: PORT, BASELINE_ANSWER_FILE (the JSON envelope to answer with), BODY_LIMIT.
 */
import { readFileSync } from 'node:fs';
import express from 'express';

const answer = JSON.parse(readFileSync(process.env.BASELINE_ANSWER_FILE ?? '', 'utf8')) as unknown;
const app = express();
app.use(express.json({ limit: process.env.BODY_LIMIT || '2mb' }));
app.post('/v1/customers/payroll/estimate', (_req, res) => {
  res.status(200).json(answer);
});
const server = app.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => console.error('baseline listening'));
process.on('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
