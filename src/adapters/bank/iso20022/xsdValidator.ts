import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Iso20022Message } from './xsd.js';

/** The xmllint program as xmllint-wasm's worker script exports it: one run of its `main` per call. */
type XmllintProgram = (options: Record<string, unknown>) => Promise<unknown>;

const require = createRequire(import.meta.url);
const PACKAGE_DIR = dirname(require.resolve('xmllint-wasm/package.json'));

/** 64 KiB pages: a big document's validation grows the memory well past xmllint-wasm's default 32 MiB ceiling. */
const INITIAL_PAGES = 256;
const MAX_PAGES = 16_384;
/** xmllint's exit codes: 0 valid, 3 and 4 invalid, 1 a document the streaming reader found not well-formed. */
const VALID = 0;
const INVALID = new Set([3, 4]);
const UNCLASSIFIED = 1;

/**
 * Validates documents against the vendored XSDs with libxml2's xmllint compiled to WebAssembly, as
 * src/adapters/bank/iso20022/xsd.ts does, but built once and reused: the WebAssembly module is compiled
 * and the schemas are read when the validator is made, so a call costs the validation alone
 * (xmllint-wasm's own entry point starts a thread and compiles the module again for every call).
 *
 * Only off the main thread: xmllint-wasm's script, loaded here, listens on the worker's parent port
 * (for messages tagged as its own, which ours are not).
 */
export class XsdValidator {
  private readonly program: XmllintProgram;
  private readonly module: WebAssembly.Module;
  private readonly schemas = new Map<Iso20022Message, string>();

  constructor() {
    this.program = require(join(PACKAGE_DIR, 'xmllint-node.js')) as XmllintProgram;
    this.module = new WebAssembly.Module(readFileSync(join(PACKAGE_DIR, 'xmllint.wasm')));
  }

  /** The document's first errors against the message's schema, empty when it is valid. */
  async errors(document: Uint8Array, message: Iso20022Message): Promise<string[]> {
    const { exitCode, stderr } = await this.run(document, message);
    if (exitCode === VALID) return [];
    if (INVALID.has(exitCode)) return errorLines(stderr).slice(0, 10);
    if (exitCode === UNCLASSIFIED) return [firstLine(stderr)];
    throw new Error(`xmllint failed (exit code ${exitCode}): ${stderr.slice(0, 500)}`);
  }

  private run(document: Uint8Array, message: Iso20022Message): Promise<{ exitCode: number; stderr: string }> {
    const schemaFile = `${message}.xsd`;
    return new Promise((resolve, reject) => {
      let stderr = '';
      this.program({
        inputFiles: [
          { fileName: 'document.xml', contents: document },
          { fileName: schemaFile, contents: this.schema(message) },
        ],
        // xmllint's streaming reader: the same schema checks without a tree of the whole document,
        // which for a report of tens of megabytes would be several times the file.
        arguments: ['--schema', schemaFile, '--noout', '--stream', 'document.xml'],
        print: () => {},
        printErr: (line: string) => (stderr += `${line}\n`),
        onExit: (exitCode: number) => resolve({ exitCode, stderr }),
        onAbort: (reason: unknown) => reject(new Error(`xmllint aborted: ${String(reason)}`)),
        wasmMemory: new WebAssembly.Memory({ initial: INITIAL_PAGES, maximum: MAX_PAGES }),
        instantiateWasm: (imports: WebAssembly.Imports, done: (instance: WebAssembly.Instance) => void) => {
          WebAssembly.instantiate(this.module, imports).then(done, reject);
          return {};
        },
        // The program's promise ends with the exit status it throws on exit; onExit has the code.
      }).catch(() => {});
    });
  }

  private schema(message: Iso20022Message): string {
    let schema = this.schemas.get(message);
    if (schema === undefined) {
      schema = readFileSync(fileURLToPath(new URL(`./xsd/${message}.xsd`, import.meta.url)), 'utf8');
      this.schemas.set(message, schema);
    }
    return schema;
  }
}

/** xmllint's error lines (`document.xml:12: Schemas validity error : …`) without the file and line, its summary line aside. */
function errorLines(stderr: string): string[] {
  return stderr
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.endsWith(' fails to validate') && !line.endsWith(' validates'))
    .map((line) => {
      const [file, lineNumber, ...rest] = line.split(':');
      return file && lineNumber && rest.length > 0 ? rest.join(':').trim() : line;
    });
}

function firstLine(output: string): string {
  return (output.split('\n').find((line) => line.trim() !== '') ?? 'not well-formed XML').replace(/^document\.xml:\d+:\s*/, '');
}
