/**
 * Where a JsonStream is written: given its parts in order; the stream's reading waits on it, so the
 * parts are read only as fast as they are sent.
 */
export type JsonSink = (parts: AsyncIterable<string | Buffer>) => Promise<void>;

/**
 * JSON text written while it is read (a payroll request of 100,000 splits is over 100 MB): the
 * database is read a page at a time, inside one snapshot, while the route writes each page to the
 * socket. `send` runs the reading and hands it to the sink; an error before the sink is called (the
 * thing is not there) is an ordinary error answer. `T` is the shape it has, so the handler types
 * still check the operation.
 */
export class JsonStream<T> {
  /** Never set: it only carries `T` for the type checker. */
  declare readonly shape?: T;

  constructor(readonly send: (sink: JsonSink) => Promise<void>) {}

  /** The whole text (for tests and the response validator, which checks what passes through res.json). */
  async text(): Promise<string> {
    const parts: string[] = [];
    await this.send(async (read) => {
      for await (const part of read) parts.push(part.toString());
    });
    return parts.join('');
  }
}
