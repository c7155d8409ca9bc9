import { fileURLToPath } from 'node:url';
import { SETTINGS } from './settings.js';
import { read } from './values.js';

/**
 * Sanctions screening: the folder of list files (the shipped extract's with SANCTIONS_SHIPPED_EXTRACT),
 * undefined when the service screens nothing; the threshold as a fraction.
 */
export interface ScreeningConfig {
  listDir: string | undefined;
  shippedExtract: boolean;
  threshold: number;
}

/** The shipped extract of the lists, beside src/ (the same path from the sources and from dist/server/src). */
const SHIPPED_EXTRACT_DIR = fileURLToPath(new URL('../../sanctions/extract/', import.meta.url));

export function screeningConfig(env: NodeJS.ProcessEnv): ScreeningConfig {
  const listDir = read(env, SETTINGS.SANCTIONS_LIST_DIR);
  const shippedExtract = listDir === undefined && read(env, SETTINGS.SANCTIONS_SHIPPED_EXTRACT);
  return {
    listDir: listDir ?? (shippedExtract ? SHIPPED_EXTRACT_DIR : undefined),
    shippedExtract,
    threshold: read(env, SETTINGS.SCREENING_THRESHOLD_PERCENT) / 100,
  };
}
