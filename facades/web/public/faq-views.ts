import type { ResultOf } from '@graphql-typed-document-node/core';
import type { PublicFaqPageDocument } from '../../generated/web-public.ts';
import { html, type Html } from '../../kit/html.ts';
import type { PageParts } from './public-views.ts';

// The FAQ page: every entry under its id as anchor (`/faq#<id>`, the faqUrl the API and the
// assistant connectors give), with where to read more when that is elsewhere.

export type FaqEntryJson = ResultOf<typeof PublicFaqPageDocument>['faqEntries'][number];

const DESCRIPTION = 'Answers about Packline: its public data, the REST API and its keys, webhooks and the assistant connectors.';

export function faqView(entries: readonly FaqEntryJson[]): PageParts {
  return {
    title: 'Frequently asked questions',
    head: html`<meta name="description" content="${DESCRIPTION}">`,
    body: html`<p>${DESCRIPTION} The <a href="/api/v1/docs">API reference</a> has the details.</p>
<nav aria-label="Questions"><ul>
${entries.map((e) => html`<li><a href="#${e.id}">${e.question}</a></li>\n`)}</ul></nav>
${entries.map(entryView)}`,
  };
}

function entryView(entry: FaqEntryJson): Html {
  const more = entry.url === entry.faqUrl ? '' : html`\n<p><a href="${entry.url}">${readMore(entry.url)}</a></p>`;
  return html`<section aria-labelledby="${entry.id}">
<h2 id="${entry.id}">${entry.question}</h2>
<p>${entry.answer}</p>${more}
</section>
`;
}

const readMore = (url: string) =>
  url.includes('/api/v1/docs#') ? 'More in the API reference' : url.endsWith('/openapi.json') ? 'The OpenAPI document' : 'Read more';
