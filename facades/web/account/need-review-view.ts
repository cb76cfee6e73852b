import { DRAFT_REVIEW_PATH } from '../../../core/index.ts';
import type { AccountNeedQuery } from '../../generated/web-account.ts';
import type { Browser } from '../../kit/browser.ts';
import { html, type Html } from '../../kit/html.ts';
import { SETTINGS_PATH, type SignedIn } from '../../kit/page-support.ts';
import { memberForm } from './account-views.ts';

// The review page of a need an application drafted: publish it, or discard the draft.

type Review = AccountNeedQuery['accountNeed'];

export const needPath = (id: string) => `${DRAFT_REVIEW_PATH}${encodeURIComponent(id)}`;
/** The publish form is bound to the revision reviewed: a changed, published or private need refuses it. */
export const publishForm = (id: string, revision: string) => `publish\n${id}\n${revision}`;
export const discardForm = (id: string) => `discard\n${id}`;

const PUBLISHING = 'Publishing makes this need public and notifies the organization’s subscribers.';

function draftActions(browser: Browser, session: SignedIn, review: Review): Html {
  const { need } = review;
  const revision = review.revision ?? '';
  const publish = memberForm(
    browser,
    session,
    { action: `${needPath(need.id)}/publish`, name: publishForm(need.id, revision) },
    'Publish',
    html`<input type="hidden" name="revision" value="${revision}">`,
    'primary',
  );
  const discardTarget = { action: `${needPath(need.id)}/discard`, name: discardForm(need.id) };
  const discard = review.discardable
    ? html`${memberForm(browser, session, discardTarget, 'Discard draft', '', 'danger')}
<p class="note">Discard deletes this draft for good; nothing of it was public.</p>`
    : html`<p class="note">This draft was prepared for another member: only they can discard it.</p>`;
  return html`<p class="note">Nothing is public yet. ${PUBLISHING}</p>
${publish}
${discard}`;
}

export function needReviewView(browser: Browser, session: SignedIn, review: Review, done: string | undefined): Html {
  const { need, state } = review;
  const actions =
    state === 'draft'
      ? draftActions(browser, session, review)
      : state === 'public'
        ? html`<p>Public at <a href="${need.url}">${need.url}</a></p>`
        : '';
  return html`
${done ? html`<p class="note">${done}</p>` : ''}
<p>For <strong>${need.organization.name}</strong> · state: <strong>${state}</strong></p>
<h2>${need.title}</h2>
<p>${need.description || '(no description)'}</p>
<p>Expertise: ${need.requiredExpertise.join(', ') || '—'} · Remote: ${need.remoteAllowed ? 'yes' : 'no'}</p>
${actions}
<p><a href="${SETTINGS_PATH}">Back to your account</a></p>`;
}
