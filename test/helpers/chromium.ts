import { existsSync } from 'node:fs';

/** Debian's chromium, driven by puppeteer-core (which downloads no browser of its own); `.ci/run` installs it. */
export const CHROMIUM = '/usr/bin/chromium';

/** Why a browser test is skipped on this machine, or false when chromium is there. */
export function chromiumMissing(what: string): string | false {
  return existsSync(CHROMIUM) ? false : `${CHROMIUM} not installed: ${what} skipped (apt-get install chromium; .ci/run installs it)`;
}

/** Headless, no sandbox (tests run as root), nothing fetched in the background. */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Headless Debian chromium through puppeteer-core, with the flags above. */
export async function launchChromium() {
  const { launch } = await import('puppeteer-core');
  return launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS });
}
