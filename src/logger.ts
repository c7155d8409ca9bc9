import pino, { type DestinationStream, type Logger } from 'pino';

/**
 * Structured JSON logs. Redaction is a second line of defence: the access log never reads
 * headers or bodies, and these paths cover anything that might be logged by mistake (a failed
 * query's parameters can hold account details, and a unique violation's `detail` repeats the
 * key it found twice: a beneficiary's IBAN).
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options: pino.LoggerOptions = {
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
  };
  return destination ? pino(options, destination) : pino(options);
}
