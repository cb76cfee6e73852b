import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { ROOT } from '../cli/run-cli.ts';
import { PASSWORD } from '../mcp/member-client.ts';
import { DEBIAN_CHROMIUM, shippedChromium, WEAKENING_FLAGS } from './shipped-chromium.ts';

// A real browser for end-to-end tests: a headless Chromium driven by playwright-core, without the
// background traffic this machine's closed network would refuse. A test file launches one browser
// in beforeAll, starts the service with `startStack({ localOrigin: true })` (the pages only accept
// forms and send plain-http cookies on their own public origin), and opens a fresh profile per
// member with `newPage`.

export const VIEWPORTS = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;
export type ViewportName = keyof typeof VIEWPORTS;

const QUIET_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-default-apps',
];

/**
 * A headless Chromium, one per test file: `CHROMIUM_PATH` or Debian's `/usr/bin/chromium` when
 * present, otherwise the one shipped inside the `@sparticuz/chromium` devDependency (so `npm test`
 * needs nothing beyond Node and npm). Never skips: a browser that does not start fails the file.
 */
export async function launchBrowser(): Promise<Browser> {
  const installed = process.env.CHROMIUM_PATH ?? (existsSync(DEBIAN_CHROMIUM) ? DEBIAN_CHROMIUM : undefined);
  if (installed) {
    if (!existsSync(installed)) throw new Error(`CHROMIUM_PATH names ${installed}, which does not exist`);
    return chromium.launch({ executablePath: installed, headless: true, args: QUIET_FLAGS });
  }
  const shipped = await shippedChromium();
  return chromium.launch({
    executablePath: shipped.executable,
    headless: true,
    // The package's own flags, less the two that would weaken the pages' same-origin checks.
    args: [...shipped.args.filter((flag) => !WEAKENING_FLAGS.has(flag)), ...QUIET_FLAGS],
  });
}

/**
 * A page in a fresh browser profile: its own cookies, so each call is another device. Plain
 * width and height only (no mobile emulation, which would zoom out a page too wide for a phone
 * and hide it). Closing the browser closes it.
 */
export async function newPage(browser: Browser, { viewport = 'desktop' }: { viewport?: ViewportName } = {}): Promise<Page> {
  const context = await browser.newContext({ viewport: VIEWPORTS[viewport] });
  return context.newPage();
}

/** Signs in through the real form, on the sign-in page the browser was sent to or opened. */
export async function signIn(page: Page, email: string, password = PASSWORD): Promise<void> {
  const at = new URL(page.url());
  expect(at.pathname, `signIn expects the sign-in page, not ${at.href}`).toBe('/account/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  const [answer] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/account/login'),
    page.getByRole('button', { name: 'Sign in' }).click(),
  ]);
  if (answer.status() !== 303) {
    await page.waitForLoadState('load');
    expect.fail(`sign-in of ${email} answered ${answer.status()}: ${await page.locator('main').textContent()}`);
  }
  await page.waitForURL((url) => url.pathname !== '/account/login');
}

/** The browser profile's cookies for `origin`, as a Cookie header for fetch. */
export async function cookieHeader(page: Page, origin: string): Promise<string> {
  return (await page.context().cookies(origin)).map((c) => `${c.name}=${c.value}`).join('; ');
}

/**
 * What every page owes its readers: a language and a title, one main heading, a label for
 * every field, and no sideways scrolling at phone width.
 */
export async function expectAccessible(page: Page, name: string): Promise<void> {
  const facts = await page.evaluate(() => {
    const buttons = ['hidden', 'submit', 'button', 'reset', 'image'];
    const fields = [...document.querySelectorAll('input, select, textarea')].filter(
      (el) => !buttons.includes((el as HTMLInputElement).type),
    );
    const unlabelled = fields.filter(
      (el) => !(el as HTMLInputElement).labels?.length && !el.getAttribute('aria-label') && !el.getAttribute('aria-labelledby'),
    );
    return {
      lang: document.documentElement.lang,
      title: document.title,
      headings: document.querySelectorAll('h1').length,
      unlabelled: unlabelled.map((el) => el.outerHTML),
    };
  });
  expect(facts.lang, `${name}: html lang`).toBe('en');
  expect(facts.title, `${name}: title`).toMatch(/\S · Packline$/);
  expect(facts.headings, `${name}: h1 headings`).toBe(1);
  expect(facts.unlabelled, `${name}: fields without a label`).toEqual([]);
  await atViewport(page, VIEWPORTS.phone, async () => {
    // Polled: a page laid out by script (the GraphQL explorer) follows the new width a moment
    // after the resize, later on a busy machine.
    const wide = () =>
      page.evaluate(() =>
        document.documentElement.scrollWidth <= window.innerWidth
          ? []
          : [...document.querySelectorAll('body *')]
              .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1)
              .map((el) => el.outerHTML.slice(0, 120)),
      );
    await expect.poll(wide, { message: `${name}: elements past the edge at phone width`, timeout: 5_000 }).toEqual([]);
  });
}

/**
 * Full-page PNGs at desktop and phone width: test/artifacts/<test file>/<name>-<desktop|phone>.png
 * (the test file's name without `.test.ts`).
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  const dir = join(ROOT, 'test', 'artifacts', testFileName());
  mkdirSync(dir, { recursive: true });
  for (const [size, viewport] of Object.entries(VIEWPORTS)) {
    await atViewport(page, viewport, () => page.screenshot({ path: join(dir, `${name}-${size}.png`), fullPage: true }));
  }
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/**
 * axe-core (WCAG 2.1 A and AA rules, plus best practices) in the page at desktop and phone width:
 * no critical or serious violation. Its source is evaluated through the DevTools protocol, which
 * the page's CSP (no inline script) does not govern.
 */
export async function expectNoSeriousAxeViolation(page: Page, name: string): Promise<void> {
  for (const viewport of Object.values(VIEWPORTS)) {
    await atViewport(page, viewport, async () => {
      await quiet(page);
      if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
      const violations = await page.evaluate(async () => {
        const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: AxeViolation[] }> } })
          .axe;
        const result = await axe.run(document, { resultTypes: ['violations'] });
        return result.violations.map((v) => ({
          id: v.id,
          impact: v.impact,
          help: v.help,
          nodes: v.nodes.map((n) => ({ target: n.target })),
        }));
      });
      const serious = violations
        .filter((v) => v.impact === 'critical' || v.impact === 'serious')
        .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
      expect(serious, `${name}: axe-core critical or serious violations at ${viewport.width}px`).toEqual([]);
    });
  }
}

/** Checks the page (`expectAccessible`, axe-core), then takes its screenshots: call it on every page a test shows. */
export async function snapshot(page: Page, name: string): Promise<void> {
  await expectAccessible(page, name);
  await expectNoSeriousAxeViolation(page, name);
  await screenshot(page, name);
}

/**
 * Resolves once the page's DOM has not changed for two animation frames in a row (at most 5 s): a
 * page that re-renders on a resize, and the scripts that repair what it renders (the API
 * reference's ARIA repairs run once per frame), have finished before axe-core looks.
 */
async function quiet(page: Page): Promise<void> {
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        let calm = 0;
        const observer = new MutationObserver(() => {
          calm = 0;
        });
        observer.observe(document.documentElement, { subtree: true, childList: true, attributes: true, characterData: true });
        const done = () => {
          observer.disconnect();
          resolve();
        };
        const limit = setTimeout(done, 5_000);
        const frame = () => {
          if (++calm >= 2) {
            clearTimeout(limit);
            done();
          } else requestAnimationFrame(frame);
        };
        requestAnimationFrame(frame);
      }),
  );
}

async function atViewport<T>(page: Page, viewport: { width: number; height: number }, run: () => Promise<T>): Promise<T> {
  const before = page.viewportSize();
  await page.setViewportSize(viewport);
  try {
    return await run();
  } finally {
    if (before) await page.setViewportSize(before);
  }
}

function testFileName(): string {
  const path = expect.getState().testPath;
  if (!path) throw new Error('screenshot() runs inside a test file');
  return basename(path).replace(/\.test\.ts$/, '');
}
