// Debian's Chromium driven by playwright-core, for the browser tests (the docs site, the console):
// `npx playwright install` cannot download browsers here, and .ci/run installs chromium when missing.
import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);

/** Says, once per test file, that its browser tests are skipped and why. */
export function warnIfNoChromium(what: string): void {
  if (!hasChromium) console.warn(`${what} SKIPPED: ${CHROMIUM} not found (install it: apt-get install -y chromium; .ci/run does)`);
}

/** Headless Chromium with nothing of its own going to the network. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-gpu'],
  });
}
