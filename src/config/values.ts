/**
 * Reading one setting from the environment: each reader returns the parsed value or its default,
 * and refuses a value it cannot read with a ConfigError naming the setting (src/config/config.ts).
 */

export class ConfigError extends Error {}

export function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer between ${min} and ${max}, got "${raw}"`);
  }
  return value;
}

export function oneOf<const Value extends string>(env: NodeJS.ProcessEnv, name: string, values: readonly Value[], fallback: Value): Value {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!(values as readonly string[]).includes(raw)) throw new ConfigError(`${name} must be one of ${values.join(', ')}, got "${raw}"`);
  return raw as Value;
}

export function boolean(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

/** A comma-separated setting, each item trimmed, empty ones dropped. */
export function list(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

const DURATION_UNITS_MS: Record<string, number> = { d: 86_400_000, h: 3_600_000, m: 60_000, s: 1000 };

/** A duration such as 4d, 36h, 90m or 30s, in milliseconds. */
export function duration(env: NodeJS.ProcessEnv, name: string, fallback: string): number {
  const raw = env[name] || fallback;
  const match = /^(\d{1,6})([dhms])$/.exec(raw);
  if (!match || Number(match[1]) === 0) throw new ConfigError(`${name} must be a duration such as 4d, 36h, 90m or 30s, got "${raw}"`);
  return Number(match[1]) * DURATION_UNITS_MS[match[2]!]!;
}

/** A comma-separated list of TCP ports (1–65535); unset or empty: `fallback`. */
export function ports(env: NodeJS.ProcessEnv, name: string, fallback: number[]): number[] {
  const items = list(env[name]);
  if (items.length === 0) return fallback;
  return items.map((item) => {
    const port = Number(item);
    if (!Number.isInteger(port) || port < 1 || port > 65535) throw new ConfigError(`${name}: ${item} is not a TCP port (1-65535)`);
    return port;
  });
}
