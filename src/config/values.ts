/**
 * The kinds of setting, and reading one. A setting is declared once (src/config/settings.ts): its
 * kind (with the range or the values it accepts), its default and its line of docs; `read` gives its
 * value from the environment, or its default when it is unset or empty. A kind checks a value with
 * its zod schema, and refuses one it does not accept with a ConfigError whose message is ours, built
 * from the declaration: it is what an operator reads when the service refuses to start.
 */
import { z } from 'zod';

export class ConfigError extends Error {}

export type Env = NodeJS.ProcessEnv;

/** What a setting accepts, as the docs and the tests see it. */
export type KindSpec =
  | { readonly type: 'integer'; readonly min: number; readonly max: number }
  | { readonly type: 'oneOf'; readonly values: readonly string[] }
  | { readonly type: 'boolean' | 'duration' | 'list' | 'ports' | 'text' | 'secret' };

/** A default that depends on other settings, and the words the docs' Default column gives it. */
export class Computed<T> {
  constructor(
    readonly shown: string,
    readonly from: (env: Env) => T,
  ) {}
}

export const computed = <T>(shown: string, from: (env: Env) => T): Computed<T> => new Computed(shown, from);

export interface Declaration<T> {
  readonly kind: KindSpec;
  /** The line of docs/operations.md's settings table. */
  readonly doc: string;
  /** The docs' Default column. */
  readonly shownDefault: string;
  /** Read by the test suite only, or only under NODE_ENV=test: the docs say so. */
  readonly testsOnly: boolean;
  /** Read outside src/config (before it can be loaded, or by the tests): that file. */
  readonly readIn: string | undefined;
  /** Whether a set value counts as unset, so that the default applies. */
  readonly holdsNothing: (raw: string) => boolean;
  /** The value of a set value; a ConfigError naming the setting when the kind refuses it. */
  readonly parse: (raw: string, name: string) => T;
  readonly fallback: (env: Env) => T;
}

export type Setting<T> = Declaration<T> & { readonly name: string };

/** Every declaration named after its key: the environment variable it is read from. */
export function declare<const D extends Record<string, Declaration<unknown>>>(
  declarations: D,
): { readonly [K in keyof D & string]: D[K] & { readonly name: K } } {
  return Object.fromEntries(Object.entries(declarations).map(([name, declaration]) => [name, { ...declaration, name }])) as never;
}

/** The setting's value in `env`, or its default when it is unset or holds nothing. */
export function read<T>(env: Env, setting: Setting<T>): T {
  const raw = env[setting.name];
  return raw === undefined || setting.holdsNothing(raw) ? setting.fallback(env) : setting.parse(raw, setting.name);
}

interface Options<T> {
  readonly default: T | Computed<T>;
  readonly doc: string;
  /** What the Default column says where the value would not say it (a secret, a free port). */
  readonly shown?: string;
  /** Appended to the Default column's value: its size in other units. */
  readonly note?: string;
  readonly testsOnly?: boolean;
  readonly readIn?: string;
}

interface KindOf<T> {
  readonly spec: KindSpec;
  /** Checks a set value (always a string) and gives what it means. */
  readonly schema: z.ZodType<T, z.ZodTypeDef, unknown>;
  /** What the ConfigError says of a value the schema refuses (none for a kind that takes any text). */
  readonly refusal?: (name: string, raw: string, error: z.ZodError) => string;
  readonly show: (value: T) => string;
  readonly holdsNothing?: (raw: string) => boolean;
}

/** A kind's declaration of a setting; its default is a value of the kind, or none (undefined, or null where "no bound" is a value). */
function declaration<T, D extends T | undefined | null>(kind: KindOf<T>, options: Options<D>): Declaration<T | D> {
  const { default: fallback, doc, shown, note, testsOnly = false, readIn } = options;
  const showValue = (value: D) => (value === undefined || value === null ? '—' : kind.show(value as T));
  return {
    kind: kind.spec,
    doc,
    shownDefault: fallback instanceof Computed ? fallback.shown : (shown ?? showValue(fallback)) + (note ? ` (${note})` : ''),
    testsOnly,
    readIn,
    holdsNothing: kind.holdsNothing ?? ((raw) => raw === ''),
    parse: (raw, name) => {
      const parsed = kind.schema.safeParse(raw);
      if (!parsed.success) throw new ConfigError(kind.refusal?.(name, raw, parsed.error) ?? `${name} cannot be "${raw}"`);
      return parsed.data;
    },
    fallback: fallback instanceof Computed ? fallback.from : () => fallback,
  };
}

const code = (text: string) => `\`${text}\``;

export function integer<D extends number | undefined>(min: number, max: number, options: Options<D>): Declaration<number | D> {
  const kind: KindOf<number> = {
    spec: { type: 'integer', min, max },
    // Number(raw), as the service always read them: ' 5 ', '1e3' and '0x10' are integers too.
    schema: z.coerce.number().int().min(min).max(max),
    refusal: (name, raw) => `${name} must be an integer between ${min} and ${max}, got "${raw}"`,
    show: (value) => code(String(value)),
  };
  return declaration(kind, options);
}

export function oneOf<const V extends string>(values: readonly [V, ...V[]], options: Options<V>): Declaration<V> {
  const kind: KindOf<V> = {
    spec: { type: 'oneOf', values },
    schema: z.enum(values),
    refusal: (name, raw) => `${name} must be one of ${values.join(', ')}, got "${raw}"`,
    show: code,
  };
  return declaration(kind, options);
}

export function boolean(options: Options<boolean>): Declaration<boolean> {
  const kind: KindOf<boolean> = {
    spec: { type: 'boolean' },
    schema: z.enum(['true', '1', 'false', '0']).transform((raw) => raw === 'true' || raw === '1'),
    refusal: (name, raw) => `${name} must be true or false, got "${raw}"`,
    show: (value) => code(String(value)),
  };
  return declaration(kind, options);
}

const DURATION_UNITS_MS = { d: 86_400_000, h: 3_600_000, m: 60_000, s: 1000 } as const;

/** A duration such as 4d, 36h, 90m or 30s, in milliseconds; never zero. */
export function duration<D extends number | null>(options: Options<D>): Declaration<number | D> {
  const kind: KindOf<number> = {
    spec: { type: 'duration' },
    schema: z
      .string()
      .regex(/^\d{1,6}[dhms]$/)
      .transform((raw) => Number(raw.slice(0, -1)) * DURATION_UNITS_MS[raw.at(-1) as keyof typeof DURATION_UNITS_MS])
      .pipe(z.number().positive()),
    refusal: (name, raw) => `${name} must be a duration such as 4d, 36h, 90m or 30s, got "${raw}"`,
    show: (ms) => {
      const [unit, size] = Object.entries(DURATION_UNITS_MS).find(([, size]) => ms % size === 0) ?? ['ms', 1];
      return code(`${ms / size}${unit}`);
    },
  };
  return declaration(kind, options);
}

/** A comma-separated value's items, each trimmed, empty ones dropped. */
function items(raw: string): string[] {
  return raw
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

const itemsOf = z.string().transform(items);
const showItems = (values: readonly unknown[]) => (values.length === 0 ? '—' : code(values.join(',')));

/** A comma-separated list; without an item, its default. */
export function list(options: Omit<Options<string[]>, 'default'> & { readonly default?: string[] }): Declaration<string[]> {
  const kind: KindOf<string[]> = { spec: { type: 'list' }, schema: itemsOf, show: showItems, holdsNothing: (raw) => items(raw).length === 0 };
  return declaration(kind, { ...options, default: options.default ?? [] });
}

/** A comma-separated list of TCP ports; without an item, its default. */
export function ports(options: Options<number[]>): Declaration<number[]> {
  const kind: KindOf<number[]> = {
    spec: { type: 'ports' },
    schema: itemsOf.pipe(z.array(z.coerce.number().int().min(1).max(65535))),
    // The first issue's path is the index of the first item refused.
    refusal: (name, raw, error) => `${name}: ${items(raw)[Number(error.issues[0]?.path[0])]} is not a TCP port (1-65535)`,
    show: showItems,
    holdsNothing: (raw) => items(raw).length === 0,
  };
  return declaration(kind, options);
}

/**
 * Text taken as it is. An empty value counts as unset, unless `empty` says it is a value of its own
 * (`kept`: the empty string) or says that there is none (`nothing`: undefined, whatever the default).
 */
export function text(options: Options<string> & { readonly empty: 'nothing' }): Declaration<string | undefined>;
export function text<D extends string | undefined>(options: Options<D> & { readonly empty?: 'kept' }): Declaration<string | D>;
export function text(options: Options<string | undefined> & { readonly empty?: 'kept' | 'nothing' }): Declaration<string | undefined> {
  const { empty } = options;
  const kind: KindOf<string | undefined> = {
    spec: { type: 'text' },
    schema: z.string().transform((raw) => (empty === 'nothing' && raw === '' ? undefined : raw)),
    show: (value) => code(String(value)),
    ...(empty && { holdsNothing: () => false }),
  };
  return declaration(kind, options);
}

/** Text whose default the docs never print: they say what it is instead. */
export function secret(options: Options<string> & { readonly shown: string }): Declaration<string> {
  const kind: KindOf<string> = { spec: { type: 'secret' }, schema: z.string(), show: () => options.shown };
  return declaration(kind, options);
}
