import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { components } from '../../../generated/api.js';

/** Node's statuses for what its HTTP parser refuses before Express sees a request. */
const PARSER_STATUS: Readonly<Record<string, number>> = { HPE_HEADER_OVERFLOW: 431, HPE_CHUNK_EXTENSIONS_OVERFLOW: 413, ERR_HTTP_REQUEST_TIMEOUT: 408 };

/**
 * What Node's HTTP parser refuses (a request line and headers beyond `maxHeaderSize`, 16 KB by
 * default) never reaches Express, and Node answers it with a bare status line. A request whose URL
 * or headers are too large gets the error envelope and an X-Request-Id like every other answer
 * (431, `PAYLOAD_TOO_LARGE`), and the connection is closed, since the rest of what it sent cannot
 * be read. Other parser errors keep Node's own answers.
 */
export function answerClientErrors(server: Server): Server {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    const status = (error.code && PARSER_STATUS[error.code]) ?? 400;
    if (error.code === 'ECONNRESET' || !socket.writable) return void socket.destroy();
    if (status !== 431)
      return void socket.end(
        `HTTP/1.1 ${status} ${status === 413 ? 'Payload Too Large' : status === 408 ? 'Request Timeout' : 'Bad Request'}\r\nConnection: close\r\n\r\n`,
      );
    const envelope: components['schemas']['ErrorEnvelope'] = {
      success: false,
      error: { code: 'PAYLOAD_TOO_LARGE', message: 'The request line and headers exceed 16 KB; send large values in the body' },
    };
    const body = JSON.stringify(envelope);
    const head = [
      'HTTP/1.1 431 Request Header Fields Too Large',
      'Content-Type: application/json; charset=utf-8',
      `Content-Length: ${Buffer.byteLength(body)}`,
    ];
    socket.end([...head, `X-Request-Id: ${randomUUID()}`, 'Connection: close', '', body].join('\r\n'));
  });
  return server;
}
