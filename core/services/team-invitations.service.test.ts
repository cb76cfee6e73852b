import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestCore, type TestCore } from '../../test/support/test-core.ts';
import type { Actor } from '../actor.ts';
import { PackInvitationEntity } from '../entities/index.ts';
import { type DomainError, INTERNAL, seedDemo, type Core } from '../index.ts';

describe('team invitations answered by the invited member', () => {
  let core: Core;
  let opened: TestCore;
  const PASSWORD = 'a long password';

  beforeAll(async () => {
    opened = await openTestCore('team-invitations');
    core = opened.core;
    await seedDemo(core);
  });
  afterAll(async () => {
    await opened.close();
  });

  async function signedIn(email: string): Promise<Actor> {
    await core.services().accounts.setPassword(INTERNAL, email, PASSWORD);
    const session = await core.services().accounts.signIn(INTERNAL, email, PASSWORD);
    const auth = await core.memberAuth.session(session.token);
    return { kind: 'memberSession', ...auth! } as Actor;
  }

  const pendingOf = async (email: string) =>
    (await core.db.em.fork().findOne(PackInvitationEntity, { member: { email }, status: 'pending' }))!.id;

  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => null,
      (error: unknown) => error as DomainError,
    );

  it('lets two answers sent at once change the invitation once; the other is told it was answered', async () => {
    const tom = await signedIn('tom@atelier-nord.example');
    const id = await pendingOf('tom@atelier-nord.example');
    const view = await core.services().teamInvitations.get(tom, id);
    expect(view).toMatchObject({
      id,
      teamName: 'School extension pack',
      status: 'pending',
      url: `https://packline.test/account/team-invitations/${id}`,
    });
    const answers = await Promise.allSettled([
      core.services().teamInvitations.answer(tom, id, 'accepted'),
      core.services().teamInvitations.answer(tom, id, 'refused'),
    ]);
    const won = answers.filter((a) => a.status === 'fulfilled');
    const lost = answers.filter((a): a is PromiseRejectedResult => a.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect(lost[0]!.reason).toMatchObject({ code: 'invalid_state' });
    const stored = await core.db.em.fork().findOne(PackInvitationEntity, { id });
    expect(stored!.status).toBe(won[0]!.value.status);
  });

  it("is for the invited member in person: another member's invitation is not found, an assistant is refused", async () => {
    const id = await pendingOf('lucas@cobalt-data.example');
    const marc = await signedIn('marc@juniper-green.example');
    expect(await failure(core.services().teamInvitations.get(marc, id))).toMatchObject({ code: 'not_found' });
    expect(await failure(core.services().teamInvitations.answer(marc, id, 'refused'))).toMatchObject({ code: 'not_found' });
    expect(await failure(core.services().teamInvitations.get(marc, '\u0000'))).toMatchObject({ code: 'not_found' });
    const assistant: Actor = { kind: 'member', memberId: 'm', grantId: 'g', clientId: 'c', scopes: ['invitations:read'] };
    expect(await failure(core.services().teamInvitations.answer(assistant, id, 'accepted'))).toMatchObject({ code: 'forbidden' });
    const stored = await core.db.em.fork().findOne(PackInvitationEntity, { id });
    expect(stored!.status).toBe('pending');
  });
});
