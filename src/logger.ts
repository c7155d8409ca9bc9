import pino, { type Logger } from 'pino';

/**
 * Structured JSON logs. Redaction is a second line of defence: the access log never reads
 * headers or bodies, and these paths cover anything that might be logged by mistake (a failed
 * query's parameters can hold account details, and a unique violation's `detail` repeats the
 * key it found twice: a beneficiary's IBAN).
 *
 * Lines go to stdout asynchronously: written on the request's own path, each line cost a blocking
 * write(2) per request, a visible share of a small answer's time in the server's CPU profile.
 * Lines that come while a write is under way are joined into the next one; nothing waits for a
 * buffer to fill, so a quiet server's lines still appear at once. pino writes what is pending
 * synchronously when the process exits, however it exits (a fatal error's line included).
 */
export function createLogger(level: string): Logger {
  return pino(
    {
      level,
      base: { service: 'payroll-fee-service' },
      redact: {
        paths: [
          'authorization',
          '*.authorization',
          'headers.authorization',
          '*.iban',
          '*.accountNumber',
          '*.bankCode',
          '*.swiftBic',
          'token',
          '*.token',
          'err.params',
          'err.query',
          'err.detail',
        ],
        censor: '[redacted]',
      },
    },
    pino.destination({ dest: 1, sync: false }),
  );
}
