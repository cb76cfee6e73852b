import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestCore, type TestCore } from '../../test/support/test-core.ts';
import { hashSecret } from '../access-secrets.ts';
import { PasswordResetEntity } from '../entities/index.ts';
import { DomainError, INTERNAL, type Core, type MailMessage } from '../index.ts';

describe('PasswordResetService', () => {
  let core: Core;
  let opened: TestCore;
  const sent: MailMessage[] = [];
  const PASSWORD = 'old password 123';

  beforeAll(async () => {
    opened = await openTestCore('reset', {
      mailer: { send: async (message) => void sent.push(message) },
    });
    core = opened.core;
    await core.services().members.create(INTERNAL, { email: 'clara@example.org', name: 'Clara Vidal', password: PASSWORD });
  });
  afterAll(async () => {
    await opened.close();
  });

  const tokenOf = (text: string) => /token=(plw_[A-Za-z0-9]{43})/.exec(text)?.[1] ?? '';
  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => null,
      (error: DomainError) => error,
    );

  it('mails a link only when an account has the address, and answers true either way', async () => {
    sent.length = 0;
    expect(await core.services().passwordResets.request(INTERNAL, 'nobody@example.org')).toBe(true);
    expect(await core.services().passwordResets.request(INTERNAL, '  Clara@Example.org ')).toBe(true);
    await expect.poll(() => sent.length).toBe(1);
    expect(sent[0]).toMatchObject({ to: 'clara@example.org', subject: 'Reset your Packline password' });
    expect(sent[0]!.text).toMatch(/https:\/\/packline\.test\/account\/password-reset\?token=plw_/);
    const token = tokenOf(sent[0]!.text);
    const stored = await core.db.em.fork().findOne(PasswordResetEntity, { tokenHash: hashSecret(token) });
    expect(stored?.expiresAt.getTime()).toBeGreaterThan(Date.now() + 29 * 60_000);
    expect(stored?.expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + 30 * 60_000);
    expect(await core.db.em.fork().count(PasswordResetEntity, { tokenHash: token })).toBe(0);
  });

  it('sets the password once, ending every session; the link then no longer works', async () => {
    const session = await core.services().accounts.signIn(INTERNAL, 'clara@example.org', PASSWORD);
    const { url } = await core.services().passwordResets.link(INTERNAL, 'clara@example.org');
    const token = tokenOf(url);
    expect(await core.services().passwordResets.target(INTERNAL, token)).toMatchObject({ email: 'clara@example.org' });

    const short = await failure(core.services().passwordResets.reset(INTERNAL, token, 'short'));
    expect(short).toMatchObject({ code: 'invalid_input', field: 'new_password' });

    const reset = await core.services().passwordResets.reset(INTERNAL, token, 'new password 456');
    expect(reset.endedGrants).toBe(0);
    expect(await core.memberAuth.session(session.token)).toBeNull();
    await expect(core.services().accounts.signIn(INTERNAL, 'clara@example.org', 'new password 456')).resolves.toMatchObject({
      memberId: reset.memberId,
    });
    const again = await failure(core.services().passwordResets.reset(INTERNAL, token, 'third password 789'));
    expect(again).toMatchObject({ code: 'invalid_state' });
    expect(await failure(core.services().passwordResets.target(INTERNAL, token))).toMatchObject({ code: 'invalid_state' });
  });

  it('lets only one of two simultaneous resets through', async () => {
    const token = tokenOf((await core.services().passwordResets.link(INTERNAL, 'clara@example.org')).url);
    const results = await Promise.all(
      ['first password 111', 'second password 222'].map((p) => failure(core.services().passwordResets.reset(INTERNAL, token, p))),
    );
    expect(results.filter((r) => r === null)).toHaveLength(1);
    expect(results.find((r) => r !== null)).toMatchObject({ code: 'invalid_state' });
  });

  it('refuses an expired, unknown or malformed link', async () => {
    const token = tokenOf((await core.services().passwordResets.link(INTERNAL, 'clara@example.org')).url);
    await core.db.em.fork().nativeUpdate(PasswordResetEntity, { tokenHash: hashSecret(token) }, { expiresAt: new Date(Date.now() - 1) });
    for (const t of [token, `plw_${'x'.repeat(43)}`, 'not-a-token', '']) {
      expect(await failure(core.services().passwordResets.reset(INTERNAL, t, 'valid password 000'))).toMatchObject({
        code: 'invalid_state',
      });
    }
    expect(await failure(core.services().passwordResets.link(INTERNAL, 'nobody@example.org'))).toMatchObject({ code: 'not_found' });
  });

  it('is for internal callers only', async () => {
    const error = await failure(core.services().passwordResets.request({ kind: 'public' }, 'clara@example.org'));
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ code: 'forbidden' });
  });
});
