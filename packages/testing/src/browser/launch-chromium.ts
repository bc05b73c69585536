import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium (installed by scripts/prepare.sh); Playwright's own browser downloads are never used. */
const CHROMIUM_PATH = process.env.AGENTRY_CHROMIUM ?? '/usr/bin/chromium';

/** Headless Chromium with no background traffic of its own, so a test sees only the page's requests. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}
