import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { memoryPages, validateXML } from 'xmllint-wasm';

/** The messages of the exchange, by their XSD file under ./xsd/ (vendored, see its README). */
export type Iso20022Message = 'pain.001.001.10' | 'pain.002.001.11' | 'camt.053.001.08' | 'camt.054.001.08';

const schemas = new Map<Iso20022Message, Promise<string>>();

function schemaOf(message: Iso20022Message): Promise<string> {
  let schema = schemas.get(message);
  if (!schema) {
    schema = readFile(fileURLToPath(new URL(`./xsd/${message}.xsd`, import.meta.url)), 'utf8');
    schemas.set(message, schema);
  }
  return schema;
}

/** The bank's cash-management messages: a payroll day's statement runs to tens of megabytes. */
const STREAMED: ReadonlySet<Iso20022Message> = new Set(['camt.053.001.08', 'camt.054.001.08']);

/**
 * Validates a document against the official XSD with libxml2's xmllint compiled to WebAssembly (no
 * native build). Returns the first errors, empty when the document is valid. Memory grows with the
 * file (a 10,000-payout pain.001 is about 10 MB of XML), hence a ceiling well above the default 32 MiB.
 * The camt messages are validated by xmllint's streaming reader: the same schema checks without a
 * tree of the whole document, which for a payroll day's statement would be several times the file.
 * Give big documents as bytes: a string would be encoded once more on its way to WebAssembly.
 */
export async function xsdErrors(xml: string | Uint8Array, message: Iso20022Message): Promise<string[]> {
  let result;
  try {
    result = await validateXML({
      xml: { fileName: 'document.xml', contents: xml },
      schema: { fileName: `${message}.xsd`, contents: await schemaOf(message) },
      maxMemoryPages: memoryPages.GiB,
      stream: STREAMED.has(message),
    });
  } catch (error) {
    // The streaming reader ends a document that is not well-formed with xmllint's "unclassified"
    // exit code (1), which the library throws; anything else (out of memory, an abort) is ours.
    if ((error as { code?: unknown }).code === XMLLINT_UNCLASSIFIED) return [firstLine((error as Error).message)];
    throw error;
  }
  return result.valid ? [] : result.errors.slice(0, 10).map((error) => error.message);
}

const XMLLINT_UNCLASSIFIED = 1;

function firstLine(output: string): string {
  return (output.split('\n').find((line) => line.trim() !== '') ?? 'not well-formed XML').replace(/^document\.xml:\d+:\s*/, '');
}
