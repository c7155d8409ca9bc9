/**
 * The baseline of `npm run bench`: the stack's physical limit on this machine. A bare Express 5
 * app in its own process with no validation, authentication, database or logging:
 *   POST /v1/customers/payroll/estimate   parses the same JSON body as the estimate and answers
 *                                         with the envelope the real server gave for it;
 *   GET  /v1/customers/payroll/requests/… answers with the real read's whole answer (the same
 *                                         size), so the read's ratio compares like with like.
 *
 * Env: PORT, BASELINE_ANSWER_FILE, BASELINE_READ_ANSWER_FILE (the JSON envelopes), BODY_LIMIT.
 */
import { readFileSync } from 'node:fs';
import express from 'express';

const envelope = (file: string | undefined): unknown => (file ? (JSON.parse(readFileSync(file, 'utf8')) as unknown) : { success: true, data: {} });
const answer = envelope(process.env.BASELINE_ANSWER_FILE);
const readAnswer = envelope(process.env.BASELINE_READ_ANSWER_FILE);
const app = express();
app.use(express.json({ limit: process.env.BODY_LIMIT || '2mb' }));
app.post('/v1/customers/payroll/estimate', (_req, res) => {
  res.status(200).json(answer);
});
app.get('/v1/customers/payroll/requests/:id', (_req, res) => {
  res.status(200).json(readAnswer);
});
const server = app.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => console.error('baseline listening'));
process.on('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
