import type { AccountDraftsQuery } from '../../../generated/web-account.ts';
import { html, type Html } from '../../../kit/html.ts';
import { when } from '../../../kit/dates.ts';

export const DRAFTS_PATH = '/account/drafts';

/** The member's drafts, each with its review link; a sentence when there is none. */
export function draftsList(drafts: AccountDraftsQuery['accountDrafts']): Html {
  if (drafts.length === 0)
    return html`<p class="note">No draft waiting. When an assistant you connected prepares a need, it appears here for you to review.</p>`;
  return html`<table class="list"><thead><tr><th>Title</th><th>For</th><th>Drafted</th><th><span class="visually-hidden">Review</span></th></tr></thead><tbody>
${drafts.map(
  (
    d,
  ) => html`<tr><td data-label="Title">${d.title}</td><td data-label="For">${d.organizationName}</td><td data-label="Drafted">${when(d.createdAt)}</td>
<td><a href="${new URL(d.reviewUrl).pathname}">Review<span class="visually-hidden"> ${d.title}</span></a></td></tr>`,
)}
</tbody></table>`;
}
