import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, TestBrowser } from '../mcp/member-client.ts';
import { startStack, type Stack } from '../support/stack.ts';
import { createOrganization } from '../support/webhooks.ts';
import { runInProcess, runJsonInProcess } from './run-cli.ts';

// `packline members reset-link`: an operator hands a member a link that sets a new password.

describe('packline members reset-link', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ demo: false });
    await createOrganization(stack, 'atelier-nord');
    await createMember(stack, 'clara@atelier-nord.example');
  });
  afterAll(() => stack?.close());

  it('prints a single-use link that opens the reset page for the member', async () => {
    const result = await runInProcess(['members', 'reset-link', '--email', 'Clara@atelier-nord.example'], stack.env);
    expect(result.code, result.stderr).toBe(0);
    const url = /^https:\/\/packline\.test\/account\/password-reset\?token=plw_[A-Za-z0-9]{43}$/m.exec(result.stdout)?.[0];
    expect(url).toBeDefined();
    expect(result.stdout).toMatch(/Single use, until \d{4}-\d\d-\d\dT/);
    const page = await new TestBrowser(stack).page(url!);
    expect(page).toContain('<strong>clara@atelier-nord.example</strong>');
  });

  it('answers JSON with --json', async () => {
    const link = await runJsonInProcess<{ url: string; expires_at: string }>(
      ['members', 'reset-link', '--email', 'clara@atelier-nord.example'],
      stack.env,
    );
    expect(link.url).toMatch(/\/account\/password-reset\?token=plw_/);
    const minutes = (Date.parse(link.expires_at) - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(29);
    expect(minutes).toBeLessThanOrEqual(30);
  });

  it('exits 3 for an unknown member and 2 without --email', async () => {
    const unknown = await runInProcess(['members', 'reset-link', '--email', 'nobody@atelier-nord.example'], stack.env);
    expect(unknown.code).toBe(3);
    expect(unknown.stdout).toBe('');
    expect(unknown.stderr).toMatch(/^error: No member with id 'nobody@atelier-nord.example'/);
    const missing = await runInProcess(['members', 'reset-link'], stack.env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--email/);
  });
});
