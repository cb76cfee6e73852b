import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findCanaries } from '../../core/demo/canaries.ts';
import { PASSWORD } from '../mcp/member-client.ts';
import { startStack, type Stack } from '../support/stack.ts';
import { launchBrowser, newPage, signIn, snapshot, VIEWPORTS } from './browser.ts';

// The public profile's edit page and the usage page in a real browser: preview, errors, save;
// the chart's labels apart at desktop and phone width, with a screenshot of it at phone width.

const ADMIN = 'ed@atelier-nord.example';
const ORG_PATH = '/admin/orgs/atelier-nord';

describe('profile and usage pages in a browser', () => {
  let stack: Stack;
  let origin: string;
  let browser: Browser;

  async function admin(): Promise<Page> {
    const page = await newPage(browser);
    await page.goto(`${origin}/admin`);
    await signIn(page, ADMIN);
    return page;
  }

  beforeAll(async () => {
    stack = await startStack({ localOrigin: true });
    origin = stack.config.publicBaseUrl;
    await stack.graphql('mutation ($input: NewMemberInput!) { createMember(input: $input) { id } }', {
      input: { email: ADMIN, name: 'Ed', password: PASSWORD, organizationId: 'atelier-nord', role: 'admin' },
    });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it('previews the profile as JSON, shows every error at once, then saves', async () => {
    const page = await admin();
    await page.getByRole('link', { name: 'Edit the public profile' }).click();
    await page.waitForURL(`${origin}${ORG_PATH}/profile`);
    await snapshot(page, 'profile-form');

    await page.getByLabel('Website').fill('https://atelier-nord.example');
    await page.getByLabel('Sectors').fill('Textile, Repair');
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.getByRole('heading', { name: /Preview/ }).waitFor();
    const json = JSON.parse((await page.locator('section pre').textContent())!);
    expect(json).toMatchObject({ website: 'https://atelier-nord.example', sectors: ['Textile', 'Repair'] });
    expect(findCanaries(await page.content())).toEqual([]);
    await snapshot(page, 'profile-preview');

    await page.getByLabel('Name').fill('');
    await page.getByLabel('Country').fill('France');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'There is a problem' }).waitFor();
    expect(await page.locator('[aria-invalid="true"]').count()).toBe(2);
    const summary = await page.getByRole('alert').textContent();
    expect(summary).toContain('Enter the name of the organization.');
    expect(summary).toContain('Enter the country as its two-letter code, such as FR or GB.');
    expect(await page.getByLabel('Country').inputValue()).toBe('France');
    await snapshot(page, 'profile-errors');

    await page.getByLabel('Name').fill('Atelier Nord');
    await page.getByLabel('Country').fill('FR');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(`${origin}${ORG_PATH}?done=profile`);
    expect(await page.getByRole('status').textContent()).toContain('The public profile is saved');
    await snapshot(page, 'profile-saved');
  });

  it('draws the usage chart with its labels apart, and folds its figures', async () => {
    for (let i = 0; i < 3; i++) expect((await stack.get('/events?limit=1')).status).toBe(200);
    const page = await admin();
    await page.goto(`${origin}${ORG_PATH}/usage`);
    expect(await page.locator('main details').evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
    expect(await page.locator('#by-key').isVisible()).toBe(true);
    for (const viewport of Object.values(VIEWPORTS)) {
      await page.setViewportSize(viewport);
      const boxes = await page.locator('figure svg text').evaluateAll((texts) => texts.map((t) => t.getBoundingClientRect().toJSON()));
      const overlaps = boxes.flatMap((a, i) =>
        boxes.slice(i + 1).filter((b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom),
      );
      expect(overlaps, `labels overlapping at ${viewport.width}px`).toEqual([]);
      const svg = (await page.locator('figure svg').boundingBox())!;
      expect(
        boxes.every((b) => b.left >= svg.x - 1 && b.right <= svg.x + svg.width + 1),
        `labels inside at ${viewport.width}px`,
      ).toBe(true);
    }
    await page.setViewportSize(VIEWPORTS.phone);
    const dir = join(import.meta.dirname, '..', 'artifacts', 'profile-usage');
    mkdirSync(dir, { recursive: true });
    await page.locator('figure').screenshot({ path: join(dir, 'usage-chart-phone.png') });
    await page.setViewportSize(VIEWPORTS.desktop);
    await snapshot(page, 'usage');
  });
});
