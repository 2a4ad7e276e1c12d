import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/** Debian's Chromium (playwright-core downloads no browser of its own); CES_TEST_CHROMIUM names another. */
export const CHROMIUM = process.env.CES_TEST_CHROMIUM ?? '/usr/bin/chromium';

/** A headless Chromium for the browser tests; fails (never skips) when it is not installed. */
export async function launchChromium(): Promise<Browser> {
  assert.ok(existsSync(CHROMIUM), `Chromium is not installed at ${CHROMIUM} (apt-get install -y chromium)`);
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}
