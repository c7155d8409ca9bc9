import pino, { type Logger } from 'pino';

/**
 * Structured JSON logs. Redaction is a second line of defence: the access log never reads
 * headers or bodies, and these paths cover anything that might be logged by mistake (a failed
 * query's parameters can hold account details).
 */
export function createLogger(level: string): Logger {
  return pino({
    level,
    base: { service: 'payroll-fee-service' },
    redact: {
      paths: ['authorization', '*.authorization', 'headers.authorization', '*.iban', '*.accountNumber', 'token', '*.token', 'err.params', 'err.query'],
      censor: '[redacted]',
    },
  });
}
