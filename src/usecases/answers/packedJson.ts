import { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';

/**
 * An operation's answer as JSON text written in its transaction and held compressed until it is
 * sent (and, under an Idempotency-Key, kept as it is for the repeats): the bytes sent are the
 * state the operation committed, and a 100,000-split request's answer (about 100 MB of JSON)
 * is a few MB in the process. `T` is the shape it has, so the handler types still check the operation.
 */
export class PackedJson<T> {
  /** Never set: it only carries `T` for the type checker. */
  declare readonly shape?: T;

  /** `bytes`: the length of the JSON text in UTF-8. */
  constructor(
    readonly gzip: Buffer,
    readonly bytes: number,
  ) {}

  /** The text's parts compressed as they come: the process holds the compressed text and one part. */
  static async pack<T>(parts: AsyncIterable<string>): Promise<PackedJson<T>> {
    // Level 1: the answer is sent once or a few times; speed matters more than the last few percent.
    const gzip = createGzip({ level: 1 });
    const chunks: Buffer[] = [];
    gzip.on('data', (chunk: Buffer) => chunks.push(chunk));
    let bytes = 0;
    for await (const part of parts) {
      bytes += Buffer.byteLength(part);
      if (!gzip.write(part)) await new Promise((resolve) => gzip.once('drain', resolve));
    }
    gzip.end();
    await finished(gzip);
    return new PackedJson<T>(Buffer.concat(chunks), bytes);
  }

  /** The JSON text as it was written, a chunk at a time. */
  text(): AsyncIterable<Buffer> {
    return Readable.from([this.gzip]).pipe(createGunzip());
  }

  /** The parsed value (for callers inside the process and the response validator). */
  async parse(): Promise<T> {
    const chunks: Buffer[] = [];
    for await (const chunk of this.text()) chunks.push(chunk);
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as T;
  }
}
