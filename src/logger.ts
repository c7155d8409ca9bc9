import pino, { type Logger } from 'pino';

/**
 * Structured JSON logs. Redaction is a second line of defence: the access log never reads
 * headers or bodies, and these paths cover anything that might be logged by mistake.
 */
export function createLogger(level: string): Logger {
  return pino({
    level,
    base: { service: 'payroll-fee-service' },
    redact: {
      paths: ['authorization', '*.authorization', 'headers.authorization', '*.iban', '*.accountNumber', 'token', '*.token'],
      censor: '[redacted]',
    },
  });
}
