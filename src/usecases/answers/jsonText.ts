/**
 * A JSON text already written (a page of a request's items, an Idempotency-Key's kept envelope) that
 * the route sends as it is, without parsing and serialising it again. It is kept as the parts it was
 * written in, which the route writes one after the other: joined, they would be copied into one more
 * string of the whole size for every answer. `T` is the shape it has, so the handler types still
 * check the operation.
 */
export class JsonText<T> {
  /** Never set: it only carries `T` for the type checker. */
  declare readonly shape?: T;

  constructor(readonly parts: readonly string[]) {}

  /** The whole text (joined: for tests and for callers that need one string). */
  get text(): string {
    return this.parts.join('');
  }

  /** The parsed value, for those that need it (the response validator in tests). */
  parse(): T {
    return JSON.parse(this.text) as T;
  }

  /** JSON.stringify of a value holding it (a stored Idempotency-Key answer) writes the JSON it holds. */
  toJSON(): T {
    return this.parse();
  }
}
