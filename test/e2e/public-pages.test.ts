import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvent, createOrganization, DAY_MS, publishNeed } from '../rest/helpers.ts';
import { startStack, type Stack } from '../support/stack.ts';
import { launchBrowser, newPage, snapshot } from './browser.ts';

// The public pages in a real browser: the home page and each kind of page Packline links to, as
// a visitor (or a team-chat unfurler) opens them, checked with axe-core and photographed at
// desktop and phone width.

describe('public pages in a browser', () => {
  let stack: Stack;
  let origin: string;
  let browser: Browser;
  let links: Record<'organization' | 'opportunity' | 'event', string>;

  beforeAll(async () => {
    stack = await startStack({ localOrigin: true, demo: false });
    origin = stack.config.publicBaseUrl;
    browser = await launchBrowser();
    const org = await createOrganization(stack, 'clan', 'Atelier Nordique de Construction Bois et Paille');
    const need = await publishNeed(stack, {
      organizationId: org,
      title: 'Hydrologist for a three-month river survey along the Scheldt',
      description:
        'We survey the river banks before the timber footbridge is built.\n\nFieldwork twice a week; reports in English or French.',
      requiredExpertise: ['hydrology', 'gis', 'field survey'],
      city: 'Lille',
      country: 'FR',
    });
    const startsAt = new Date(Date.now() + 10 * DAY_MS);
    const event = await createEvent(stack, {
      organizationId: org,
      title: 'Open studio: timber in public buildings',
      startsAt,
      endsAt: new Date(startsAt.getTime() + 3 * 3_600_000),
      city: 'Ghent',
      country: 'BE',
    });
    links = {
      organization: `${origin}/organizations/${org}`,
      opportunity: `${origin}/opportunities/${need}`,
      event: `${origin}/events/${event}`,
    };
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  it('the home page leads to the API reference, the connectors and sign-in', async () => {
    const page = await newPage(browser);
    expect((await page.goto(`${origin}/`))?.status()).toBe(200);
    for (const name of ['API reference', 'Sign in']) expect(await page.getByRole('link', { name, exact: true }).count()).toBeGreaterThan(0);
    await expect.poll(() => page.getByRole('heading', { name: 'Assistant connectors' }).count()).toBe(1);
    await snapshot(page, 'public-home');
  });

  for (const kind of ['organization', 'opportunity', 'event'] as const) {
    it(`the ${kind} page shows its public fields and carries its JSON-LD`, async () => {
      const page = await newPage(browser);
      expect((await page.goto(links[kind]))?.status()).toBe(200);
      const ld = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? '{}') as { '@type': string };
      expect(ld['@type']).toBe({ organization: 'Organization', opportunity: 'Demand', event: 'Event' }[kind]);
      expect(await page.locator('meta[property="og:title"]').getAttribute('content')).toBe(await page.locator('h1').textContent());
      await snapshot(page, `public-${kind}`);
    });
  }

  it('the FAQ page has every entry under its anchor', async () => {
    const page = await newPage(browser);
    expect((await page.goto(`${origin}/faq#webhook-signature`))?.status()).toBe(200);
    expect(await page.locator('h1').textContent()).toBe('Frequently asked questions');
    expect(await page.locator('h2#webhook-signature').textContent()).toBe('How do I verify a webhook signature?');
    expect(await page.locator('nav[aria-label="Questions"] a').count()).toBe(await page.locator('main section h2[id]').count());
    await snapshot(page, 'public-faq');
  });

  it('a missing page is an HTML page too', async () => {
    const page = await newPage(browser);
    expect((await page.goto(`${origin}/opportunities/n_missing`))?.status()).toBe(404);
    expect(await page.locator('h1').textContent()).toBe('Page not found');
    await snapshot(page, 'public-not-found');
  });
});
