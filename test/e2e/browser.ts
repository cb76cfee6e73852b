import { existsSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { PASSWORD } from '../mcp/member-client.ts';
import { ROOT } from '../cli/run-cli.ts';

// A real browser for end-to-end tests: Debian's Chromium driven by playwright-core, headless,
// without the background traffic this machine's closed network would refuse.

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const VIEWPORTS = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium is not installed at ${CHROMIUM}: install Debian's chromium package (apt-get install chromium), as .ci/run does`);
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-default-apps'],
  });
}

/** A fresh browser profile (cookies included) with one page at desktop size. */
export async function openPage(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: VIEWPORTS.desktop });
  return { context, page: await context.newPage() };
}

/** A free local port, so the service can be told its own public address before it starts. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * Screenshots of the page at desktop and phone width under test/artifacts/<suite>/, checking on
 * the way what every page owes its readers: a language and a title, a label for every field,
 * and no sideways scrolling on a phone.
 */
export async function snapshot(page: Page, suite: string, name: string): Promise<void> {
  const dir = join(ROOT, 'test', 'artifacts', suite);
  mkdirSync(dir, { recursive: true });
  const facts = await page.evaluate(() => {
    const fields = [...document.querySelectorAll('input, select, textarea')].filter((el) => (el as HTMLInputElement).type !== 'hidden');
    const unlabelled = fields.filter((el) => !(el as HTMLInputElement).labels?.length && !el.getAttribute('aria-label')).map((el) => el.outerHTML);
    return { lang: document.documentElement.lang, title: document.title, unlabelled };
  });
  expect(facts.lang, `${name}: html lang`).toBe('en');
  expect(facts.title, `${name}: title`).toMatch(/· Packline$/);
  expect(facts.unlabelled, `${name}: fields without a label`).toEqual([]);
  for (const [size, viewport] of Object.entries(VIEWPORTS)) {
    await page.setViewportSize(viewport);
    if (size === 'phone') {
      const wide = await page.evaluate(() =>
        document.documentElement.scrollWidth <= window.innerWidth
          ? []
          : [...document.querySelectorAll('body *')].filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1).map((el) => el.outerHTML.slice(0, 120)),
      );
      expect(wide, `${name}: elements past the edge at phone width`).toEqual([]);
    }
    await page.screenshot({ path: join(dir, `${name}-${size}.png`), fullPage: true });
  }
  await page.setViewportSize(VIEWPORTS.desktop);
}

/** Signs in through the real form, wherever the page was sent to it. */
export async function signIn(page: Page, email: string, password = PASSWORD): Promise<void> {
  await expect.poll(() => new URL(page.url()).pathname).toBe('/account/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await Promise.all([page.waitForURL((url) => url.pathname !== '/account/login'), page.getByRole('button', { name: 'Sign in' }).click()]);
}
