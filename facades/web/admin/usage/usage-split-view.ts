import { html, type Html } from '../../../kit/html.ts';
import type { AdminUsageQuery } from '../../../generated/web-admin.ts';

// The usage page's month picker, and the month's answers split by key and by status class.

/** The usage of the month shown, as the page's document gives it. */
export type Usage = AdminUsageQuery['organizationAdministration']['usage'];

export const number = (n: number) => n.toLocaleString('en');
const CLASSES = ['2xx', '3xx', '4xx', '429', '5xx'] as const;
const CLASS_LABELS: Record<(typeof CLASSES)[number], string> = {
  '2xx': 'Answered (2xx)',
  '3xx': 'Not modified (3xx)',
  '4xx': 'Refused request (4xx)',
  '429': 'Over the limit (429)',
  '5xx': 'Server error (5xx)',
};

/** A form without script: the months with usage, newest first. */
export function monthPicker(usage: Usage, path: string): Html {
  const option = (m: string) => html`<option value="${m}"${m === usage.month ? html` selected` : ''}>${m}</option>`;
  return html`<form method="get" action="${path}" class="inline"><label for="f-month">Month (UTC)</label> \
<select id="f-month" name="month">${usage.months.map(option)}</select> <button type="submit">Show</button></form>`;
}

const keyLabel = (a: Usage['answers'][number]) => (a.name === null ? html`a deleted key` : html`${a.name} <code>${a.prefix}</code>`);

/** The month's answers per key (a row each, a column per status class) and per status class. */
export function splitTables(usage: Usage): Html {
  const { answers } = usage;
  if (answers.length === 0) return html`<h2>By key and by status</h2><p class="note">No call with an API key this month.</p>`;
  const keys = [...new Map(answers.map((a) => [a.keyId, a])).values()];
  const count = (keyId: string | null, answer: string) =>
    answers.filter((a) => (keyId === null || a.keyId === keyId) && a.answer === answer).reduce((sum, a) => sum + a.calls, 0);
  const row = (k: (typeof keys)[number]) =>
    html`<tr><th scope="row">${keyLabel(k)}</th>${CLASSES.map((c) => html`<td data-label="${CLASS_LABELS[c]}">${number(count(k.keyId, c))}</td>`)}</tr>`;
  const byStatus = CLASSES.map(
    (c) => html`<tr><th scope="row">${CLASS_LABELS[c]}</th><td data-label="Answers">${number(count(null, c))}</td></tr>`,
  );
  return html`<h2>By key</h2>
<p class="note">Every answer to each key, refusals included: a 429 is a call refused by the minute’s rate limit or the month’s quota.</p>
<table class="list" id="by-key"><thead><tr><th>Key</th>${CLASSES.map((c) => html`<th>${CLASS_LABELS[c]}</th>`)}</tr></thead><tbody>
${keys.map(row)}
</tbody></table>
<h2>By status</h2>
<table class="list" id="by-status"><thead><tr><th>Status</th><th>Answers</th></tr></thead><tbody>
${byStatus}
</tbody></table>`;
}
