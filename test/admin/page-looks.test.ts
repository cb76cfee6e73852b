// The words and looks of the pages over HTTP: success notices styled as such, the main action of
// each form primary, no administration link for a member who administers nothing, the navigation
// folding into a menu, and a destination's page titled by its name.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMember, hidden, PASSWORD, TestBrowser } from '../mcp/member-client.ts';
import { startStack, type Stack } from '../support/stack.ts';

const ORG = 'juniper-green';
const WEBHOOKS = `/admin/orgs/${ORG}/webhooks`;

let stack: Stack;
let admin: TestBrowser;
const csrfFor = (html: string, action: string) => hidden(html.slice(html.indexOf(`action="${action}"`)), 'csrf');

beforeAll(async () => {
  stack = await startStack();
  const email = 'looks@juniper-green.example';
  await stack.graphql(`mutation ($input: NewMemberInput!) { createMember(input: $input) { id } }`, {
    input: { email, name: 'Lou', password: PASSWORD, organizationId: ORG, role: 'admin' },
  });
  admin = new TestBrowser(stack);
  await admin.signIn(email, PASSWORD, '/admin');
});
afterAll(() => stack?.close());

describe('words and looks', () => {
  it('a member who administers nothing sees no administration link; an admin does', async () => {
    const member = new TestBrowser(stack);
    await member.signIn(await createMember(stack, 'plain@juniper-green.example', ORG).then(() => 'plain@juniper-green.example'));
    const settings = await member.page('/account/settings');
    expect(settings).not.toContain('href="/admin"');
    expect(settings).not.toContain(`href="/admin/orgs/${ORG}`);
    const own = await admin.page('/account/settings');
    expect(own).toContain('<a href="/admin">Packline admin</a>');
    expect(own).toContain('Administration of your organizations');
  });

  it('folds the navigation into a keyboard-usable menu, and marks the primary action', async () => {
    const list = await admin.page(WEBHOOKS);
    expect(list).toContain('<nav aria-label="Administration"><ul class="nav-wide">');
    expect(list).toMatch(
      /<details class="nav-menu"><summary>Menu<\/summary><ul>[\s\S]*href="\/admin\/orgs\/juniper-green\/webhooks" aria-current="page"/,
    );
    expect(list).toContain('<button type="submit" class="primary">Add destination</button>');
    expect(await admin.page(`/admin/orgs/${ORG}/keys`)).toContain('<button type="submit" class="primary">Create key</button>');
    expect(await admin.page('/account/settings')).toContain('class="primary">Change password</button>');
    const css = await (await fetch(`${stack.origin}${/href="([^"]+\.css)"/.exec(list)![1]!}`)).text();
    expect(css).toMatch(/\.success\{[^}]*background/);
    expect(css).toMatch(/button\.primary\{[^}]*background/);
    expect(css).toContain('td[data-label=Prefix] code');
    expect(css).toMatch(/@media \(max-width:40rem\)\{\s*header\.site \.nav-wide\{display:none\}header\.site \.nav-menu\{display:block\}/);
  });

  it('shows a success notice as success, and titles a destination’s page by its name', async () => {
    const list = await admin.page(WEBHOOKS);
    const form = {
      csrf: csrfFor(list, WEBHOOKS),
      name: 'Warehouse feed',
      format: 'team-chat',
      url: 'https://93.184.216.34/hook',
      language: 'en',
      kinds: 'event.created',
      scope: 'own',
    };
    const created = await admin.request(WEBHOOKS, { form });
    expect(created.status, await created.clone().text()).toBe(303);
    const page = await admin.page(created.headers.get('location')!);
    expect(page).toContain('<p class="success" role="status">The destination is added.');
    expect(page).toContain('<title>Warehouse feed');
    expect(page).toContain('<h1>Warehouse feed</h1>');
  });
});
