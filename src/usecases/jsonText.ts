/**
 * A JSON text already built (by PostgreSQL) that the route sends as it is, without parsing and
 * serialising it again. `T` is the shape it has, so the handler types still check the operation.
 */
export class JsonText<T> {
  /** Never set: it only carries `T` for the type checker. */
  declare readonly shape?: T;

  constructor(readonly text: string) {}

  /** The parsed value, for those that need it (the response validator in tests, a stored answer). */
  parse(): T {
    return JSON.parse(this.text) as T;
  }
}
