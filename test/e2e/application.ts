import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { TestOAuthClient } from '../mcp/member-client.ts';

// An assistant application connecting to a member's account through the real OAuth flow: the
// MCP SDK registers it, builds the authorization request and exchanges the code; the member
// answers the consent page in the browser.

/** The SDK's client of an application that, like a real one, forgets tokens the server refused. */
export class BrowserApplication extends TestOAuthClient {
  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    if (scope === 'all' || scope === 'tokens') this.stored = undefined;
    if (scope === 'all' || scope === 'client') this.info = undefined;
  }
}

export interface ConnectOptions {
  /** Called on the consent page before Accept is clicked (to look at it, or screenshot it). */
  onConsent?: (page: Page) => Promise<void>;
}

/**
 * Connects an application named `name` to the member signed in on `page`, and resolves with its
 * OAuth client holding tokens.
 */
export async function connectApplication(
  page: Page,
  origin: string,
  name: string,
  { onConsent }: ConnectOptions = {},
): Promise<BrowserApplication> {
  // The application's redirect address really listens: Playwright's routes do not see the
  // second hop of a redirect, and Chromium would show its error page for a closed port.
  const callback = createServer((_req, res) => res.end(`back at ${name}`));
  callback.listen(0, '127.0.0.1');
  await once(callback, 'listening');
  const redirect = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/callback`;
  const client = new BrowserApplication(name, redirect);
  const serverUrl = `${origin}/mcp/member`;
  try {
    expect(await auth(client, { serverUrl })).toBe('REDIRECT');
    await page.goto(client.authorizationUrl!.href);
    expect(new URL(page.url()).pathname, 'the consent page (is the member signed in?)').toBe('/oauth/consent');
    await onConsent?.(page);
    await Promise.all([
      page.waitForURL((url) => url.href.startsWith(`${redirect}?`)),
      page.getByRole('button', { name: 'Accept' }).click(),
    ]);
  } finally {
    callback.closeAllConnections();
    callback.close();
  }
  const back = new URL(page.url());
  expect(back.searchParams.get('state')).toBe(client.state());
  const metadata = (await (await fetch(`${origin}/.well-known/oauth-authorization-server`)).json()) as { issuer: string };
  expect(back.searchParams.get('iss'), 'RFC 9207: the issuer as its metadata states it').toBe(metadata.issuer);
  expect(await auth(client, { serverUrl, authorizationCode: back.searchParams.get('code')! })).toBe('AUTHORIZED');
  return client;
}

/** An MCP client of the member connector, authenticated by `provider`. */
export async function memberMcpClient(origin: string, provider: TestOAuthClient): Promise<Client> {
  const client = new Client({ name: 'e2e-application', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${origin}/mcp/member`), { authProvider: provider }));
  return client;
}
