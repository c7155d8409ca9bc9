/**
 * A response that is a file, not the JSON envelope (a CSV template or statement): its media type,
 * its text, and the name a browser saves it under. Sent as it is.
 */
export class TextBody {
  constructor(
    readonly mediaType: string,
    readonly text: string,
    readonly filename?: string,
  ) {}
}
