import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../support/stack.ts';
import { expectNoSeriousAxeViolation, launchBrowser, newPage, screenshot } from './browser.ts';

// The API reference (/api/v1/docs) in a real browser: it renders the OpenAPI document without a
// validation error, fetches nothing from another origin, and has no critical or serious axe-core
// finding at desktop or phone width.

describe('API reference in a browser', () => {
  let stack: Stack;
  let origin: string;
  let browser: Browser;

  beforeAll(async () => {
    stack = await startStack({ localOrigin: true, demo: false });
    origin = stack.config.publicBaseUrl;
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  async function open(): Promise<{ page: Page; console: string[]; outside: string[] }> {
    const page = await newPage(browser);
    const console: string[] = [];
    const outside: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') console.push(message.text());
    });
    page.on('pageerror', (error) => console.push(error.message));
    page.context().on('request', (request) => {
      const url = new URL(request.url());
      if (url.protocol !== 'data:' && url.protocol !== 'blob:' && url.origin !== origin) outside.push(request.url());
    });
    expect((await page.goto(`${origin}/api/v1/docs`))?.status()).toBe(200);
    await page.locator('h1').first().waitFor();
    await page.waitForLoadState('load');
    return { page, console, outside };
  }

  it('renders the document without validation errors, and nothing leaves the origin', async () => {
    const { page, console, outside } = await open();
    expect(console.filter((line) => /validation|error/i.test(line))).toEqual([]);
    expect(outside).toEqual([]);
    await screenshot(page, 'api-reference');
  });

  it('has no critical or serious axe-core finding', async () => {
    const { page } = await open();
    await expectNoSeriousAxeViolation(page, 'api-reference');
  });
});
