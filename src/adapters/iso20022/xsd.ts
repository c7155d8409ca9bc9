import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { memoryPages, validateXML } from 'xmllint-wasm';

/** The two messages of the exchange, by their XSD file under ./xsd/ (vendored, see its README). */
export type Iso20022Message = 'pain.001.001.10' | 'pain.002.001.11';

const schemas = new Map<Iso20022Message, Promise<string>>();

function schemaOf(message: Iso20022Message): Promise<string> {
  let schema = schemas.get(message);
  if (!schema) {
    schema = readFile(fileURLToPath(new URL(`./xsd/${message}.xsd`, import.meta.url)), 'utf8');
    schemas.set(message, schema);
  }
  return schema;
}

/**
 * Validates a document against the official XSD with libxml2's xmllint compiled to WebAssembly (no
 * native build). Returns the first errors, empty when the document is valid. Memory grows with the
 * file (a 10,000-payout pain.001 is about 10 MB of XML), hence a ceiling well above the default 32 MiB.
 */
export async function xsdErrors(xml: string, message: Iso20022Message): Promise<string[]> {
  const result = await validateXML({
    xml: { fileName: 'document.xml', contents: xml },
    schema: { fileName: `${message}.xsd`, contents: await schemaOf(message) },
    maxMemoryPages: memoryPages.GiB,
  });
  return result.valid ? [] : result.errors.slice(0, 10).map((error) => error.message);
}
