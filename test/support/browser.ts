// What the dashboard's browser tests share: Debian's Chromium through playwright-core (never a
// downloaded browser), where screenshots go, and signing in through the form.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { PROJECT_ROOT } from '@switchyard/app';
import { TEST_API_KEY } from './app.js';

export const CHROMIUM = '/usr/bin/chromium';
export const SHOTS = join(PROJECT_ROOT, 'test-artifacts', 'screenshots');

/** Chromium, or the suite skipped when it is missing (an error where CI requires browser tests). */
export async function launchChromium(suite: Mocha.Context): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    if (process.env['SWITCHYARD_TEST_BROWSER'] === 'required') throw new Error(`${CHROMIUM} is missing; install Debian's chromium (apt-get install chromium)`);
    suite.skip();
  }
  mkdirSync(SHOTS, { recursive: true });
  return chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
}

/** Signs in with the owner's API key through the dashboard's form, landing on `next`. */
export async function signInThroughForm(page: Page, baseUrl: string, next = '/dashboard'): Promise<void> {
  await page.goto(`${baseUrl}/dashboard/login?next=${encodeURIComponent(next)}`);
  await page.fill('#api_key', TEST_API_KEY);
  await Promise.all([page.waitForURL(`${baseUrl}${next}`), page.click('button[type=submit]:has-text("Sign in")')]);
}
