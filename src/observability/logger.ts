import pino, { type DestinationStream, type Logger } from 'pino';

/** Bytes of log lines written in one write(2): a few dozen request lines. */
const BATCH_BYTES = 4096;
/** The longest a line waits for its batch. */
const FLUSH_MS = 200;

/**
 * Structured JSON logs. Redaction is a second line of defence: the access log never reads
 * headers or bodies, and these paths cover anything that might be logged by mistake (a failed
 * query's parameters can hold account details, and a unique violation's `detail` repeats the
 * key it found twice: a beneficiary's IBAN).
 *
 * Lines go to stdout in batches: written one by one on the request's own path, each cost a
 * blocking write(2) per request, a visible share of a small answer's time in the server's CPU
 * profile. They are written once `BATCH_BYTES` are pending, and at the latest `FLUSH_MS` after they
 * came, so a quiet server's lines still appear within that; pino writes what is pending
 * synchronously when the process exits, however it exits (a fatal error's line included).
 */
export function createLogger(level: string, destination: DestinationStream = batchedStdout()): Logger {
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
    destination,
  );
}

/** Standard output, written in batches of `BATCH_BYTES`, flushed every `FLUSH_MS`. */
function batchedStdout(): DestinationStream {
  const destination = pino.destination({ dest: 1, sync: false, minLength: BATCH_BYTES });
  setInterval(() => destination.flush(), FLUSH_MS).unref();
  return destination;
}
