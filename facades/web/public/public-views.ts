import { FAQ_PATH } from '../../../core/index.ts';
import type { event, opportunity, organization } from '../../representations/resources.ts';
import { Html, html } from '../../kit/html.ts';
import { LOGIN_PATH, SETTINGS_PATH } from '../../kit/page-support.ts';

// The public pages' markup: each view takes the REST API's representation of its resource (only
// public fields), and gives the page's title, body and head: Open Graph tags so a link unfurls
// in team chat, and schema.org JSON-LD.

export type OrganizationJson = ReturnType<typeof organization.json>;
export type OpportunityJson = ReturnType<typeof opportunity.json>;
export type EventJson = ReturnType<typeof event.json>;
type PlaceJson = OrganizationJson['place'];

export interface PageParts {
  title: string;
  body: Html;
  head: Html;
}

/** Where the home page points: the API reference and the connectors, on this service. */
export interface HomeLinks {
  publicBaseUrl: string;
}

const SITE = 'Packline';
const SUMMARY_LENGTH = 300;

export function homeView({ publicBaseUrl }: HomeLinks): PageParts {
  const title = 'Packline: public data of the network, for your software and assistants';
  const description =
    'Packline publishes the public profiles of organizations, their open needs and their events: a REST API, webhooks and assistant connectors.';
  return {
    title,
    head: openGraph({ type: 'website', title, description, url: `${publicBaseUrl}/` }),
    body: html`<p>${description}</p>
<h2>For developers</h2>
<ul>
<li><a href="/api/v1/docs">API reference</a>: the REST API (<code>${publicBaseUrl}/api/v1</code>), its webhooks and their signatures.</li>
<li><a href="/api/v1/openapi.json">OpenAPI document</a> of the same API.</li>
<li><a href="${FAQ_PATH}">Frequently asked questions</a>: keys, limits, webhooks, the connectors, what is never exposed.</li>
</ul>
<h2 id="connectors">Assistant connectors</h2>
<p>Add one of these addresses as a connector (MCP) in your assistant:</p>
<ul>
<li>Public directory, no account needed: <code>${publicBaseUrl}/mcp</code></li>
<li>Your own account, after you consent: <code>${publicBaseUrl}/mcp/member</code>.
<a href="${SETTINGS_PATH}">Your account</a> lists the applications you connected.</li>
</ul>
<h2>Members</h2>
<p><a href="${LOGIN_PATH}">Sign in</a> to manage your organization's keys, webhooks and connected applications.</p>`,
  };
}

export function organizationView(org: OrganizationJson): PageParts {
  const where = placeText(org.place);
  return {
    title: org.name,
    head: html`${openGraph({ type: 'profile', title: org.name, description: org.description, url: org.profile_url, image: org.logo_url })}
${jsonLd({
  '@context': 'https://schema.org',
  '@type': 'Organization',
  '@id': org.profile_url,
  url: org.profile_url,
  name: org.name,
  description: org.description || undefined,
  sameAs: org.website ?? undefined,
  logo: org.logo_url ?? undefined,
  address: postalAddress(org.place),
  knowsAbout: org.capabilities.length ? org.capabilities : undefined,
})}`,
    body: html`${paragraphs(org.description)}
<dl>
${where ? html`<dt>Based in</dt><dd>${where}</dd>` : ''}
${org.website ? html`<dt>Website</dt><dd><a href="${org.website}" rel="nofollow">${org.website}</a></dd>` : ''}
${terms('Capabilities', org.capabilities)}
${terms('Sectors', org.sectors)}
${terms('Networks', org.networks)}
<dt>Track record</dt><dd>${org.proofs.completed_packs} completed packs, ${org.proofs.references} references, ${org.proofs.certifications} certifications</dd>
${
  org.partner_payment.confirmed_rate_percent === null
    ? ''
    : html`<dt>Partners paid on time</dt><dd>${org.partner_payment.confirmed_rate_percent} % (${org.partner_payment.partners_count} partners)</dd>`
}
</dl>
${updated(org.updated_at)}`,
  };
}

export function opportunityView(need: OpportunityJson): PageParts {
  const where = need.place ? placeText(need.place) : '';
  const title = need.title;
  return {
    title,
    head: html`${openGraph({ type: 'article', title, description: need.description || `A need of ${need.organization.name}`, url: need.url })}
${jsonLd({
  '@context': 'https://schema.org',
  // A need is a Demand: an organization's public announcement that it seeks a service.
  '@type': 'Demand',
  '@id': need.url,
  url: need.url,
  name: need.title,
  description: need.description || undefined,
  validFrom: need.published_at ?? undefined,
  validThrough: need.deadline ?? undefined,
  areaServed: need.place ? postalAddress(need.place) : undefined,
  itemOffered: { '@type': 'Service', name: need.title, serviceType: need.required_expertise },
  '@reverse': { seeks: { '@type': 'Organization', name: need.organization.name } },
})}`,
    body: html`<p class="note">A need of <strong>${need.organization.name}</strong>, published ${day(need.published_at ?? need.updated_at)}.</p>
${paragraphs(need.description)}
<dl>
${terms('Expertise sought', need.required_expertise)}
<dt>Where</dt><dd>${[where, need.remote_allowed ? 'remote work possible' : ''].filter(Boolean).join(' · ') || 'not specified'}</dd>
${need.deadline ? html`<dt>Deadline</dt><dd><time datetime="${need.deadline}">${day(need.deadline)}</time></dd>` : ''}
</dl>
${updated(need.updated_at)}`,
  };
}

export function eventView(ev: EventJson): PageParts {
  const where = ev.online ? 'Online' : placeText(ev.place ?? { city: null, region: null, country: null }) || 'To be announced';
  return {
    title: ev.title,
    head: html`${openGraph({ type: 'article', title: ev.title, description: `${moment(ev.starts_at, ev.timezone)} · ${where}`, url: ev.url })}
${jsonLd({
  '@context': 'https://schema.org',
  '@type': 'Event',
  '@id': ev.url,
  url: ev.url,
  name: ev.title,
  description: ev.description || undefined,
  startDate: ev.starts_at,
  endDate: ev.ends_at,
  eventStatus: 'https://schema.org/EventScheduled',
  eventAttendanceMode: `https://schema.org/${ev.online ? 'Online' : 'Offline'}EventAttendanceMode`,
  location: ev.online || !ev.place ? { '@type': 'VirtualLocation', url: ev.url } : { '@type': 'Place', address: postalAddress(ev.place) },
  organizer: { '@type': 'Organization', name: ev.host.name },
})}`,
    body: html`<p class="note">Hosted by <strong>${ev.host.name}</strong>.</p>
<dl>
<dt>Starts</dt><dd><time datetime="${ev.starts_at}">${moment(ev.starts_at, ev.timezone)}</time></dd>
<dt>Ends</dt><dd><time datetime="${ev.ends_at}">${moment(ev.ends_at, ev.timezone)}</time></dd>
<dt>Where</dt><dd>${where}</dd>
</dl>
${paragraphs(ev.description)}
${updated(ev.updated_at)}`,
  };
}

/** What a missing or non-public resource answers: the same page whichever it is, so nothing is told. */
export function notFoundView(path: string): PageParts {
  return {
    title: 'Page not found',
    head: html`<meta name="robots" content="noindex">`,
    body: html`<p>There is no public page at <code>${path}</code>: it may have been withdrawn, cancelled or made private.</p>
<p><a href="/">Packline home</a></p>`,
  };
}

function openGraph(og: { type: string; title: string; description: string; url: string; image?: string | null }): Html {
  const description = summary(og.description);
  return html`<meta name="description" content="${description}"><link rel="canonical" href="${og.url}">
<meta property="og:site_name" content="${SITE}"><meta property="og:type" content="${og.type}"><meta property="og:title" content="${og.title}">
<meta property="og:description" content="${description}"><meta property="og:url" content="${og.url}">\
${og.image ? html`<meta property="og:image" content="${og.image}">` : ''}
<meta name="twitter:card" content="summary">`;
}

/**
 * A JSON-LD block. Not a script the browser runs (the CSP allows none inline); `<`, `>` and `&`
 * are escaped so no value can end the element.
 */
function jsonLd(value: object): Html {
  const json = JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return html`<script type="application/ld+json">${new Html(json)}</script>`;
}

const postalAddress = (place: PlaceJson) =>
  place.city === null && place.region === null && place.country === null
    ? undefined
    : {
        '@type': 'PostalAddress',
        addressLocality: place.city ?? undefined,
        addressRegion: place.region ?? undefined,
        addressCountry: place.country ?? undefined,
      };

const placeText = (place: PlaceJson) => [place.city, place.region, place.country].filter(Boolean).join(', ');

const terms = (label: string, values: readonly string[]) => (values.length ? html`<dt>${label}</dt><dd>${values.join(', ')}</dd>` : '');

const paragraphs = (text: string) =>
  text
    .split(/\n\s*\n/)
    .filter((p) => p.trim())
    .map((p) => html`<p>${p.trim()}</p>`);

const summary = (text: string) => (text.length > SUMMARY_LENGTH ? `${text.slice(0, SUMMARY_LENGTH - 1).trimEnd()}…` : text);

const day = (iso: string) => new Intl.DateTimeFormat('en', { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(iso));

const moment = (iso: string, timeZone: string) =>
  new Intl.DateTimeFormat('en', {
    weekday: 'long',
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZone,
    timeZoneName: 'short',
  }).format(new Date(iso));

const updated = (iso: string) => html`<p class="note">Last updated <time datetime="${iso}">${day(iso)}</time>.</p>`;
