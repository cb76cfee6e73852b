import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser } from '../../facades/kit/browser.ts';
import { connectMember, createMember, PASSWORD, rawToolCall, SESSION, TestBrowser } from '../mcp/member-client.ts';
import { PUBLIC_BASE_URL, startStack, type Stack } from '../support/stack.ts';
import type { QueryData } from '../support/graphql-data.ts';

// The applications an organization's members connected, as its admins see them and disconnect
// them: who, which application, its abilities, last use; only for members of that organization.

const PATH = '/admin/orgs/atelier-nord/applications';
const hidden = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(html)?.[1] ?? '';
const csrfFor = (html: string, action: string) => hidden(html.slice(html.indexOf(`action="${action}"`)), 'csrf');

describe('connected applications, admin view', () => {
  let stack: Stack;
  let admin: TestBrowser;

  beforeAll(async () => {
    stack = await startStack();
    await stack.graphql('mutation ($input: NewMemberInput!) { createMember(input: $input) { id } }', {
      input: { email: 'ad@atelier-nord.example', name: 'Ad Min', password: PASSWORD, organizationId: 'atelier-nord', role: 'admin' },
    });
    admin = new TestBrowser(stack);
    await admin.signIn('ad@atelier-nord.example', PASSWORD, '/admin');
  });
  afterAll(() => stack?.close());

  it('lists a member’s application with its abilities, and disconnects it: POST → 303, the next call refused', async () => {
    expect(await (await admin.request(PATH)).text()).toContain('No member has connected an assistant application.');
    await createMember(stack, 'mia@atelier-nord.example');
    const client = await connectMember(stack, 'mia@atelier-nord.example', new TestBrowser(stack), 'Mia’s Desk Assistant');
    const call = await rawToolCall(stack, client.stored!.access_token, 'my_account');
    expect(call.status).toBe(200);
    await call.body?.cancel();

    const list = await (await admin.request(PATH)).text();
    expect(list).toContain('mia@atelier-nord.example');
    expect(list).toContain('Mia’s Desk Assistant');
    expect(list).toContain('<code>needs:draft</code>');
    expect(list).not.toContain('>never</td>');
    const action = /action="(\/admin\/orgs\/atelier-nord\/applications\/[^"]+\/revoke)"/.exec(list)![1]!;
    expect((await admin.request(action, { form: {} })).status).toBe(403);
    const posted = await admin.request(action, { form: { csrf: csrfFor(list, action) } });
    expect(posted.status).toBe(303);
    expect(posted.headers.get('location')).toBe(`${PATH}?done=revoked`);
    const after = await (await admin.request(`${PATH}?done=revoked`)).text();
    expect(after).toContain('The application is disconnected.');
    expect(after).not.toContain('Mia’s Desk Assistant');
    expect((await rawToolCall(stack, client.stored!.access_token, 'my_account')).status).toBe(401);
  });

  it('shows another organization’s members to nobody here, and refuses their grants as not found', async () => {
    await createMember(stack, 'ola@cobalt-data.example', 'cobalt-data');
    await connectMember(stack, 'ola@cobalt-data.example', new TestBrowser(stack), 'Ola’s Assistant');
    expect(await (await admin.request(PATH)).text()).not.toContain('Ola’s Assistant');
    const { assistantGrants } = await stack.graphql<QueryData<'assistantGrants'>>(
      'query { assistantGrants(member: "ola@cobalt-data.example") { id } }',
    );
    const grant = assistantGrants[0]!;
    const action = `${PATH}/${grant.id}/revoke`;
    // Even with a valid token for that id, another organization's grant is not found, and stays.
    const pageKeys = new Browser({ secret: stack.config.dataEncryptionKey, publicBaseUrl: PUBLIC_BASE_URL });
    const csrf = pageKeys.csrf(admin.cookie(SESSION)!, `application-revoke\n${grant.id}`);
    const forged = await admin.request(action, { form: { csrf } });
    expect(forged.status).toBe(404);
    expect(await forged.text()).toContain('No connected application');
    const { assistantGrants: still } = await stack.graphql<QueryData<'assistantGrants'>>(
      'query { assistantGrants(member: "ola@cobalt-data.example") { active } }',
    );
    expect(still[0]?.active).toBe(true);
    const plain = new TestBrowser(stack);
    await createMember(stack, 'pl@atelier-nord.example');
    await plain.signIn('pl@atelier-nord.example', PASSWORD, '/admin');
    expect((await plain.request(PATH)).status).toBe(403);
  });
});
