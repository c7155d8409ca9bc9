/**
 * What the document-order replay of the examples needs (test/process/spec/examplesReplay.test.ts): the curl
 * sample of each example case, a runner that executes one as printed, and the bindings that carry a
 * generated value from an earlier answer into the later examples that show it.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { ExampleCase } from './examples.js';

type Example = { value?: unknown };
export interface Operation {
  operationId: string;
  description?: string;
  parameters?: Array<{ name: string; in: string; example?: unknown; examples?: object }>;
  responses: Record<string, { content?: Record<string, { examples?: Record<string, Example> }> }>;
  'x-codeSamples'?: Array<{ lang: string; label: string; source: string }>;
}

export interface Answer {
  status: number;
  requestId: string;
  body: string;
  json: unknown;
}

/**
 * The curl sample of each case, in the order of `cases`: an operation's curl samples follow its
 * request examples in the order the cases list them (scripts/code-samples.mjs writes one per example,
 * or one for an operation without a body). Throws when the counts differ.
 */
export function curlSamplesByCase(raw: { paths: Record<string, Record<string, Operation>> }, cases: ExampleCase[]): string[] {
  const seen = new Map<string, number>();
  return cases.map((example) => {
    const operation = raw.paths[example.path]?.[example.method];
    const curls = (operation?.['x-codeSamples'] ?? []).filter((sample) => sample.label.startsWith('curl'));
    const index = seen.get(example.operationId) ?? 0;
    seen.set(example.operationId, index + 1);
    const sample = curls[index];
    if (!sample) throw new Error(`${example.operationId} ${example.name}: no curl sample number ${index + 1} (it has ${curls.length})`);
    return sample.source;
  });
}

/** Runs a sample with bash, with only PATH and `env`; the status and request id come from $CURL_HOME/.curlrc's write-out. */
export async function runCurl(source: string, env: Record<string, string>): Promise<Answer> {
  const { stdout } = await promisify(execFile)('bash', ['-c', source], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env }, timeout: 30_000 });
  const lines = stdout.split('\n');
  const status = Number(lines.pop());
  const requestId = lines.pop() ?? '';
  const body = lines.join('\n');
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    json = undefined;
  }
  return { status, requestId, body, json };
}

/** The error codes of the examples an operation documents for `status`. */
export function documentedCodes(operation: Operation, status: number): string[] {
  const examples = Object.values(operation.responses[String(status)]?.content ?? {}).flatMap((media) => Object.values(media.examples ?? {}));
  return examples.map((example) => (example.value as { error?: { code?: string } } | undefined)?.error?.code ?? '');
}

/** Keys whose values the server generates and a later example repeats. */
const GENERATED_KEYS = new Set(['id', 'feeHash']);
/** The demo world's ids are the same on every run: never rebound. Short ids (a statement line's "77") are not unique enough to replace in a text. */
const DEMO_ID = /^7b1e/;
const MIN_LENGTH = 16;

/**
 * Documented value → the value the server answered in its place. The answer and its response example
 * are read side by side: the resource an answer is about (`data.id`, `data.feeHash`) is bound anew each
 * time (the latest answer wins, as a reader copies the latest id); an id inside it (a list's item) only
 * the first time it is seen.
 */
export class ValueBindings {
  private readonly values = new Map<string, string>();

  learn(documented: unknown, actual: unknown, path = ''): void {
    if (Array.isArray(documented) && Array.isArray(actual)) {
      documented.forEach((item, index) => this.learn(item, actual[index], `${path}.${index}`));
      return;
    }
    if (!isObject(documented) || !isObject(actual)) return;
    for (const [key, value] of Object.entries(documented)) {
      const answered = actual[key];
      if (
        GENERATED_KEYS.has(key) &&
        typeof value === 'string' &&
        typeof answered === 'string' &&
        value !== answered &&
        value.length >= MIN_LENGTH &&
        !DEMO_ID.test(value)
      ) {
        if (path === '.data' || !this.values.has(value)) this.values.set(value, answered);
      } else this.learn(value, answered, `${path}.${key}`);
    }
  }

  apply(source: string): string {
    let text = source;
    for (const [documented, actual] of this.values) text = text.split(documented).join(actual);
    return text;
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);
