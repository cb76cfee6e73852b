import type { Request, Response, Router } from 'express';
import {
  DELIVERY_FORMATS,
  DESTINATION_SCOPES,
  DomainError,
  LANGUAGES,
  MAX_PAGE_SIZE,
  SIGNAL_TYPES,
  type DeliveryFormat,
  type DestinationScope,
  type Language,
  type SignalType,
  type TeamChatProvider,
} from '../../../core/index.ts';
import { teamChatAuthorizeUrl } from '../../integrations/team-chat.route.ts';
import { flashCookie, takeFlash, type Flash } from '../kit/flash.ts';
import { html, seeOther, type Html } from '../kit/html.ts';
import type { AdminDestinationFragment } from '../../generated/web-admin.ts';
import { field, pathParam, requestIdOf, type PageDeps } from '../kit/page-support.ts';
import {
  ADMIN_PATH,
  adminFailure,
  adminForm,
  adminPage,
  adminVisit,
  afterForm,
  at,
  choicesOf,
  COPY_SCRIPT_PATH,
  errorSummary,
  REFRESH_SCRIPT_PATH,
  fieldAttrs,
  fieldError,
  freshForm,
  groupAttrs,
  notice,
  orgPath,
  refused,
  refusedStatus,
  sentValues,
  shownOnce,
  fieldValue,
  type AdminVisit,
  type FormState,
} from './admin-support.ts';
import { plansLink } from './plans/plans-views.ts';
import { destinationUrl, secretActions } from './signing/signing-views.ts';
import { asPageFailure, deliveriesTable, destinationPath, failingSince, mountDeliveryPages, webhooksPath } from './deliveries.pages.ts';

export interface WebhookPagesOptions {
  /** The team-chat OAuth provider, when the connection flow is configured. */
  teamChat: TeamChatProvider | undefined;
  publicBaseUrl: string;
  /** Attempts per delivery (the retry schedule's length). */
  maxAttempts: number;
}

type Destination = AdminDestinationFragment;

const FORMAT_NAMES: Record<DeliveryFormat, string> = {
  'standard-json': 'Standard JSON',
  'team-chat': 'Team-chat blocks',
  'collaboration-suite': 'Collaboration-suite adaptive card',
};
const FORMAT_LABELS: Record<DeliveryFormat, string> = {
  'standard-json': 'Standard JSON — a signed envelope, for your own systems',
  'team-chat': 'Team-chat blocks — a message in a chat channel (its incoming webhook URL)',
  'collaboration-suite': 'Collaboration-suite adaptive card — a card in a suite channel (its incoming webhook URL)',
};
const LANGUAGE_LABELS: Record<Language, string> = { en: 'English', fr: 'French (français)' };
const KIND_LABELS: Record<SignalType, string> = {
  'need.created': 'a public need is published',
  'need.updated': 'a public need’s content or criteria change',
  'need.withdrawn': 'a public need is withdrawn or made private',
  'event.created': 'a public event is created',
  'event.updated': 'a public event’s date, place or content change',
  'event.cancelled': 'a public event is cancelled',
};
const SCOPE_LABELS: Record<DestinationScope, string> = {
  platform: 'Platform — every public need and event on Packline',
  own: 'Own — only your organization’s public needs and events',
};

/** A destination's setting as the page names it; the schema gives it as a string, shown as is when unknown. */
const labelOf = (labels: Readonly<Record<string, string>>, value: string) => labels[value] ?? value;

const SECRET_NOTICE = 'This signing secret is shown once. Store it now; it cannot be displayed again.';
const LIST_DONE = { deleted: 'The destination is deleted with its deliveries. Nothing more is sent to it.' };
const DESTINATION_DONE = {
  added: 'The destination is added. Signals are sent to it from now on.',
  test: 'Test event queued. It is sent within seconds and appears below.',
  enabled: 'The destination is active again: it receives events from now on.',
  paused: 'The destination is paused: nothing is sent to it until you resume it.',
  updated: 'The destination is saved.',
  retried: 'The delivery is queued again and sent now.',
};

const EDIT_FIELDS = ['name', 'description', 'url', 'language', 'kinds', 'scope'] as const;

const notFound = (id: string) => new DomainError('not_found', `No webhook destination with id '${id}'`);

/** Language, event kinds and scope: what the typed form, the team-chat connection and the edit form share. */
function settingsFields(form: FormState, prefix = ''): Html {
  const id = (name: string) => (prefix ? html` id="${prefix}-${name}"` : fieldAttrs(form, name));
  const language = fieldValue(form, 'language', 'en');
  const kinds = choicesOf(form, 'kinds', SIGNAL_TYPES);
  const scope = fieldValue(form, 'scope', 'platform');
  return html`<label for="${prefix ? `${prefix}-language` : 'f-language'}">Language of the messages</label><select name="language"${id('language')}>${LANGUAGES.map((l) => html`<option value="${l}"${l === language ? html` selected` : ''}>${LANGUAGE_LABELS[l]}</option>`)}</select>
${prefix ? '' : fieldError(form, 'language')}
<fieldset${prefix ? '' : groupAttrs(form, 'kinds')}><legend>Event kinds</legend>${prefix ? '' : fieldError(form, 'kinds')}
${SIGNAL_TYPES.map((k, i) => html`<label><input type="checkbox" name="kinds" value="${k}"${i === 0 && !prefix ? html` id="f-kinds"` : ''}${kinds.includes(k) ? html` checked` : ''}> <span><code>${k}</code> — ${KIND_LABELS[k]}</span></label>`)}
</fieldset>
<fieldset${prefix ? '' : groupAttrs(form, 'scope')}><legend>Scope</legend>${prefix ? '' : fieldError(form, 'scope')}
${DESTINATION_SCOPES.map((s, i) => html`<label><input type="radio" name="scope" value="${s}"${i === 0 && !prefix ? html` id="f-scope"` : ''}${s === scope ? html` checked` : ''}> ${SCOPE_LABELS[s]}</label>`)}
</fieldset>`;
}

const STATUS_FILTERS = ['pending', 'succeeded', 'failed'] as const;

const CREATE_FIELDS = ['name', 'description', 'format', 'url', 'language', 'kinds', 'scope'] as const;
const CREATE_LABELS: Record<string, string> = {
  name: 'Name',
  description: 'Description',
  format: 'Format',
  url: 'URL',
  language: 'Language',
  kinds: 'Event kinds',
  scope: 'Scope',
};

/** What tells a destination apart: its name, or its format for one added before names. */
const titleOf = (d: Destination) => d.name || `${labelOf(FORMAT_NAMES, d.format)} destination`;

/** Name and description: the add and edit forms share them. */
function labelFields(form: FormState, fallbackName = ''): Html {
  return html`<label for="f-name">Name</label><input name="name" maxlength="100" required value="${fieldValue(form, 'name', fallbackName)}"${fieldAttrs(form, 'name', 'name-help')}>
${fieldError(form, 'name')}<p id="name-help" class="note">To tell your destinations apart, such as the system or channel that receives it.</p>
<label for="f-description">Description <span class="note">(optional)</span></label><textarea name="description" maxlength="500" rows="2"${fieldAttrs(form, 'description')}>${fieldValue(form, 'description')}</textarea>
${fieldError(form, 'description')}`;
}

function statusText(d: Destination): string {
  if (d.status === 'paused') return 'paused';
  if (d.status === 'disabled') return `disabled${d.disabledReason ? ` (${d.disabledReason})` : ''}`;
  return 'active';
}

function settingsOf(req: Request, visit: AdminVisit) {
  const kinds = ([] as unknown[])
    .concat((req.body as Record<string, unknown>).kinds ?? [])
    .filter((k): k is string => typeof k === 'string');
  return { organizationId: visit.org.id, language: field(req, 'language'), kinds, scope: field(req, 'scope') };
}

/**
 * Webhook destinations: list, add (typed URL, or the team-chat connection flow), details with
 * the retained deliveries, test signal, secret rotation, enabling and deletion; delivery pages.
 */
export function mountWebhookPages(router: Router, deps: PageDeps, options: WebhookPagesOptions): void {
  const LIST = `${ADMIN_PATH}/orgs/:org/webhooks`;
  const ONE = `${LIST}/:destination`;

  async function destinations(visit: AdminVisit): Promise<Destination[]> {
    const outcome = await deps.operations.run('AdminDestinations', { id: visit.org.id }, visit.session.context);
    if (!outcome.ok) throw outcome.error;
    return outcome.data.webhookDestinations;
  }

  /** The destination when it belongs to the organization in the address. */
  const owned = async (visit: AdminVisit, id: string) => (await destinations(visit)).find((d) => d.id === id);

  function listPage(req: Request, res: Response, visit: AdminVisit, list: Destination[], form: FormState = freshForm()) {
    const { plan } = visit.org;
    const limit = visit.org.allowances.destinations;
    const full = list.length >= limit;
    const provider = options.teamChat;
    const format = fieldValue(form, 'format', 'standard-json');
    const body = html`${errorSummary(form, CREATE_LABELS)}${notice(req, LIST_DONE)}
<p>The ${plan} plan allows up to ${limit} destination${limit === 1 ? '' : 's'} (${list.length} in use).</p>
<h2>Your destinations</h2>
${
  list.length === 0
    ? html`<p class="note">No destination yet.</p>`
    : html`<table class="list"><thead><tr><th>Destination</th><th>URL</th><th>Format</th><th>Language</th><th>Event kinds</th><th>Scope</th><th>Status</th><th>Signing secret</th><th>Created</th></tr></thead><tbody>
${list.map(
  (
    d,
  ) => html`<tr><td data-label="Destination"><a href="${destinationPath(visit, d.id)}">${titleOf(d)}</a>${d.description ? html`<br><span class="note">${d.description}</span>` : ''}</td>
<td data-label="URL">${destinationUrl(d)}</td><td data-label="Format">${labelOf(FORMAT_NAMES, d.format)}</td><td data-label="Language">${d.language}</td><td data-label="Event kinds">${d.kinds.join(', ')}</td><td data-label="Scope">${d.scope}</td>
<td data-label="Status" class="status-${d.status}">${statusText(d)}</td>
<td data-label="Signing secret">${d.secret ? html`<code>${d.secret}</code>` : 'none (unsigned format)'}</td><td data-label="Created">${at(d.createdAt)}</td></tr>`,
)}
</tbody></table>`
}
<h2>Add a destination</h2>
${
  full
    ? html`<p class="error" role="alert">The ${plan} plan allows ${limit} webhook destination${limit === 1 ? '' : 's'}. Delete one before adding another${plan === 'clan' ? '' : ', or move to a larger plan'}. ${plansLink(visit.org.id)}</p>`
    : html`${adminForm(
        deps,
        visit,
        webhooksPath(visit),
        'webhook-create',
        html`
${labelFields(form)}
<label for="f-format">Format</label><select name="format"${fieldAttrs(form, 'format')}>${DELIVERY_FORMATS.map((f) => html`<option value="${f}"${f === format ? html` selected` : ''}>${FORMAT_LABELS[f]}</option>`)}</select>
${fieldError(form, 'format')}
<label for="f-url">URL</label><input type="url" name="url" required maxlength="2000" placeholder="https://" value="${fieldValue(form, 'url')}"${fieldAttrs(form, 'url', 'url-help')}>
${fieldError(form, 'url')}<p id="url-help" class="note">An https address on the public internet. Standard JSON deliveries are signed with a secret shown once, after you add the destination. For the team-chat and collaboration-suite formats, paste the channel’s incoming webhook URL: it is stored encrypted and shown masked.</p>
${settingsFields(form)}
<button type="submit">Add destination</button>`,
      )}
<h3>Connect a team-chat channel</h3>
${
  provider
    ? html`<p>You pick the channel on the team-chat provider’s site. Packline asks only for permission to post to that channel and keeps no access token.</p>
${adminForm(deps, visit, orgPath(visit.org.id, '/webhooks/team-chat'), 'webhook-team-chat', html`${settingsFields(freshForm(), 'chat')}<button type="submit">Connect a team-chat channel</button>`)}`
    : html`<p class="note">The one-click connection is not set up on this service. Meanwhile, create an incoming webhook in the channel and paste its URL above with the team-chat format.</p>
<p class="note">To set it up, the operator registers an OAuth app with the team-chat provider (redirect address <code>${new URL('/integrations/team-chat/callback', options.publicBaseUrl).href}</code>) and sets <code>TEAM_CHAT_CLIENT_ID</code>, <code>TEAM_CHAT_CLIENT_SECRET</code>, <code>TEAM_CHAT_AUTHORIZE_URL</code> and <code>TEAM_CHAT_TOKEN_URL</code>, as the “Team-chat connection flow” part of the README’s “Outbound webhooks” section explains.</p>`
}`
}`;
    // The team-chat form is answered with a redirect to the provider: the CSP must let it lead there.
    const formAction = provider && !full ? [new URL(provider.authorizeUrl).origin] : [];
    adminPage(res, visit, 'webhooks', 'Webhooks', body, { formAction, status: refusedStatus(form) });
  }

  async function destinationPage(req: Request, res: Response, visit: AdminVisit, id: string) {
    const shown = await takeFlash(deps, req, res, visit.session.token);
    const after = typeof req.query.after === 'string' ? req.query.after : undefined;
    // Filters: known values only; anything else shows every delivery.
    const status =
      typeof req.query.status === 'string' && (STATUS_FILTERS as readonly string[]).includes(req.query.status)
        ? req.query.status
        : undefined;
    const type =
      typeof req.query.type === 'string' && (SIGNAL_TYPES as readonly string[]).includes(req.query.type) ? req.query.type : undefined;
    const filters = new URLSearchParams({ ...(status ? { status } : {}), ...(type ? { type } : {}) });
    const withFilters = (extra: Record<string, string> = {}) => {
      const query = new URLSearchParams({ ...Object.fromEntries(filters), ...extra }).toString();
      return query ? `?${query}` : '';
    };
    const first = Math.min(MAX_PAGE_SIZE, visit.org.allowances.retainedDeliveries);
    const outcome = await deps.operations.run(
      'AdminDestination',
      { id, organizationId: visit.org.id, first, after, status, type },
      visit.session.context,
    );
    if (!outcome.ok) return adminFailure(res, visit, 'webhooks', asPageFailure(outcome.error), webhooksPath(visit));
    const d = outcome.data.webhookDestination;
    // The service lets an admin of both organizations see it: the address must name its own.
    if (d.organizationId !== visit.org.id) return adminFailure(res, visit, 'webhooks', notFound(id), webhooksPath(visit));
    const { edges, pageInfo } = outcome.data.webhookDeliveries;
    const deliveries = edges.map((e) => e.node);
    const failing = d.status === 'active' && !after && !status && !type ? failingSince(deliveries) : null;
    const waiting = req.query.done === 'test' && deliveries.some((x) => x.status === 'pending');
    const path = destinationPath(visit, d.id);
    const { allowances, plan } = visit.org;
    const body = html`${shown ? shownOnce(shown.label, shown.secret, shown.warning) : ''}
${notice(req, DESTINATION_DONE)}
<p><a href="${webhooksPath(visit)}">All destinations</a></p>
<dl><dt>Name</dt><dd>${titleOf(d)}</dd>
${d.description ? html`<dt>Description</dt><dd>${d.description}</dd>` : ''}
<dt>Format</dt><dd>${labelOf(FORMAT_LABELS, d.format)}</dd>
<dt>URL</dt><dd>${destinationUrl(d)}</dd>
<dt>Language</dt><dd>${labelOf(LANGUAGE_LABELS, d.language)}</dd>
<dt>Event kinds</dt><dd>${d.kinds.join(', ')}</dd>
<dt>Scope</dt><dd>${labelOf(SCOPE_LABELS, d.scope)}</dd>
<dt>Status</dt>${failing ? html`<dd class="status-failed">failing since ${at(failing)}: its newest deliveries did not succeed (see below)</dd>` : html`<dd class="status-${d.status}">${statusText(d)}</dd>`}
${d.secret ? html`<dt>Signing secret</dt><dd><code>${d.secret}</code>${d.previousSecretExpiresAt ? ` (the previous secret also signs until ${at(d.previousSecretExpiresAt)})` : ''}</dd>` : ''}
<dt>Added</dt><dd>${at(d.createdAt)}${d.connectedVia === 'oauth' ? ' through the team-chat connection' : ''}</dd></dl>
<h2>Actions</h2>
${
  d.status === 'active'
    ? html`${adminForm(deps, visit, `${path}/test`, `webhook-test\n${d.id}`, html`<button type="submit">Send a test event</button> <span class="note">A sample <code>${d.kinds[0] ?? ''}</code> event marked as a test.</span>`)}
${adminForm(deps, visit, `${path}/pause`, `webhook-pause\n${d.id}`, html`<button type="submit">Pause</button> <span class="note">Nothing is sent until you resume it; events published meanwhile are not sent later.</span>`)}`
    : d.status === 'paused'
      ? html`<p class="note">Paused: this destination receives nothing, and events published meanwhile are not kept for it.</p>${adminForm(deps, visit, `${path}/enable`, `webhook-enable\n${d.id}`, html`<button type="submit">Resume</button>`)}`
      : html`<p class="note">Disabled${d.disabledReason ? ` (${d.disabledReason})` : ''}: this destination receives nothing. Enable it again once the receiver accepts deliveries; it receives events from then on.</p>${adminForm(deps, visit, `${path}/enable`, `webhook-enable\n${d.id}`, html`<button type="submit">Enable the destination again</button>`)}`
}
<ul><li><a href="${path}/edit">Edit name, address, language, event kinds or scope</a></li>${secretActions(path, d)}<li><a href="${path}/delete">Delete the destination</a></li></ul>
<h2>Deliveries</h2>
<p class="note">The ${plan} plan keeps the newest ${allowances.retainedDeliveries} finished deliveries of each destination; older ones are deleted. Deliveries still being attempted are kept.
${allowances.manualRetry ? 'A failed delivery can be sent again with Retry.' : 'Retrying a failed delivery by hand is part of the clan plan.'}</p>
<form method="get" action="${path}" class="filters" aria-label="Filter the deliveries">
<label for="filter-status">Status</label><select name="status" id="filter-status"><option value="">Any status</option>${STATUS_FILTERS.map((s) => html`<option value="${s}"${s === status ? html` selected` : ''}>${s}</option>`)}</select>
<label for="filter-type">Event kind</label><select name="type" id="filter-type"><option value="">Any event kind</option>${SIGNAL_TYPES.map((k) => html`<option value="${k}"${k === type ? html` selected` : ''}>${k}</option>`)}</select>
<button type="submit">Show</button>${status || type ? html` <a href="${path}">Show all</a>` : ''}
</form>
<p class="note" role="status" data-refresh-status>${waiting ? html`Waiting for the test event to be delivered: <a href="${path}${withFilters({ done: 'test' })}">reload</a> to see it.` : ''}</p>
<div id="deliveries" ${waiting ? html`data-refresh` : ''}>
${deliveriesTable(deps, visit, deliveries, options.maxAttempts)}
</div>
${after || pageInfo.hasNextPage ? html`<p>${after ? html`<a href="${path}${withFilters()}">Newest deliveries</a> ` : ''}${pageInfo.hasNextPage && pageInfo.endCursor ? html`<a href="${path}${withFilters({ after: pageInfo.endCursor })}">Older deliveries</a>` : ''}</p>` : ''}`;
    adminPage(res, visit, 'webhooks', shown?.title ?? 'Webhook destination', body, {
      scripts: [...(shown ? [COPY_SCRIPT_PATH] : []), ...(waiting ? [REFRESH_SCRIPT_PATH] : [])],
    });
  }

  /** A confirmation page, then its POST: on a destination of this organization only, its CSRF token bound to the id. */
  function confirmed(
    action: 'delete',
    confirm: (d: Destination, form: Html) => Html | DomainError,
    act: (req: Request, res: Response, visit: AdminVisit, d: Destination) => Promise<void>,
  ) {
    const title = 'Delete a webhook destination';
    router.get(`${ONE}/${action}`, async (req: Request, res: Response) => {
      const visit = await adminVisit(deps, req, res);
      if (!visit) return;
      const d = await owned(visit, pathParam(req, 'destination'));
      if (!d) return adminFailure(res, visit, 'webhooks', notFound(pathParam(req, 'destination')), webhooksPath(visit));
      const path = destinationPath(visit, d.id);
      const form = adminForm(
        deps,
        visit,
        `${path}/${action}`,
        `webhook-${action}\n${d.id}`,
        html`<button type="submit" class="danger">${title}</button>`,
      );
      const question = confirm(d, form);
      if (question instanceof DomainError) return adminFailure(res, visit, 'webhooks', question, path);
      adminPage(res, visit, 'webhooks', title, html`${question}<p><a href="${path}">Cancel</a></p>`);
    });
    onDestination(action, act);
  }

  /** A POST on one destination of this organization, its CSRF token bound to the form and the id. */
  function onDestination(action: string, act: (req: Request, res: Response, visit: AdminVisit, d: Destination) => Promise<void>) {
    router.post(`${ONE}/${action}`, async (req: Request, res: Response) => {
      const id = pathParam(req, 'destination');
      const visit = await adminVisit(deps, req, res, `webhook-${action}\n${id}`);
      if (!visit) return;
      // Only a destination of this organization: the service checks the admin, the page checks the address.
      const d = await owned(visit, id);
      if (!d) return adminFailure(res, visit, 'webhooks', notFound(id), webhooksPath(visit));
      await act(req, res, visit, d);
    });
  }

  router.get(LIST, async (req: Request, res: Response) => {
    const visit = await adminVisit(deps, req, res);
    if (!visit) return;
    listPage(req, res, visit, await destinations(visit));
  });

  router.post(LIST, async (req: Request, res: Response) => {
    const visit = await adminVisit(deps, req, res, 'webhook-create');
    if (!visit) return;
    const input = {
      ...settingsOf(req, visit),
      name: field(req, 'name'),
      description: field(req, 'description'),
      format: field(req, 'format') ?? '',
      url: field(req, 'url') ?? '',
    };
    const outcome = await deps.operations.run('AdminCreateDestination', { input }, visit.session.context);
    if (!outcome.ok)
      return listPage(
        req,
        res,
        visit,
        await destinations(visit),
        refused({ kinds: [], ...sentValues(req, CREATE_FIELDS) }, outcome.error, CREATE_FIELDS),
      );
    const { secret, destination } = outcome.data.createWebhookDestination;
    // POST → 303 → GET: a reload adds nothing more. The secret crosses the redirect in the flash, once.
    const path = destinationPath(visit, destination.id);
    const flash: Flash | null = secret
      ? { title: 'Destination added', label: 'Signing secret of the new destination', secret, warning: SECRET_NOTICE }
      : null;
    if (flash) return seeOther(res, path, requestIdOf(res), [flashCookie(deps.browser, visit.session.token, path, flash)]);
    afterForm(res, path, 'added');
  });

  router.post(`${LIST}/team-chat`, async (req: Request, res: Response) => {
    const visit = await adminVisit(deps, req, res, 'webhook-team-chat');
    if (!visit) return;
    const provider = options.teamChat;
    if (!provider) {
      return adminFailure(
        res,
        visit,
        'webhooks',
        new DomainError(
          'not_found',
          'The team-chat connection flow is not set up on this service; paste the channel’s incoming webhook URL with the team-chat format instead',
        ),
        webhooksPath(visit),
      );
    }
    const outcome = await deps.operations.run('AdminBeginTeamChat', { input: settingsOf(req, visit) }, visit.session.context);
    if (!outcome.ok) return adminFailure(res, visit, 'webhooks', outcome.error, webhooksPath(visit));
    seeOther(res, teamChatAuthorizeUrl(provider, options.publicBaseUrl, outcome.data.beginTeamChatConnection.state), requestIdOf(res));
  });

  router.get(ONE, async (req: Request, res: Response) => {
    const visit = await adminVisit(deps, req, res);
    if (!visit) return;
    await destinationPage(req, res, visit, pathParam(req, 'destination'));
  });

  onDestination('test', async (_req, res, visit, d) => {
    const outcome = await deps.operations.run('AdminSendTest', { id: d.id }, visit.session.context);
    if (!outcome.ok) return adminFailure(res, visit, 'webhooks', outcome.error, destinationPath(visit, d.id));
    afterForm(res, destinationPath(visit, d.id), 'test');
  });

  function editPage(res: Response, visit: AdminVisit, d: Destination, form: FormState) {
    const path = destinationPath(visit, d.id);
    const body = html`${errorSummary(form, CREATE_LABELS)}
<p><a href="${path}">Back to the destination</a></p>
${adminForm(
  deps,
  visit,
  `${path}/edit`,
  `webhook-edit\n${d.id}`,
  html`
${labelFields(form)}
<p>Format: ${labelOf(FORMAT_LABELS, d.format)} <span class="note">(to change it, add a new destination)</span></p>
<label for="f-url">New URL <span class="note">(optional)</span></label><input type="url" name="url" maxlength="2000" placeholder="https://" value="${fieldValue(form, 'url')}"${fieldAttrs(form, 'url', 'edit-url-help')}>
${fieldError(form, 'url')}<p id="edit-url-help" class="note">Now ${destinationUrl(d)}. Leave empty to keep it. A new address keeps the signing secret and the deliveries already made.</p>
${settingsFields(form)}
<button type="submit">Save</button> <a href="${path}">Cancel</a>`,
)}`;
    adminPage(res, visit, 'webhooks', `Edit “${titleOf(d)}”`, body, { status: refusedStatus(form) });
  }

  router.get(`${ONE}/edit`, async (req: Request, res: Response) => {
    const visit = await adminVisit(deps, req, res);
    if (!visit) return;
    const d = await owned(visit, pathParam(req, 'destination'));
    if (!d) return adminFailure(res, visit, 'webhooks', notFound(pathParam(req, 'destination')), webhooksPath(visit));
    editPage(res, visit, d, freshForm({ name: d.name, description: d.description, language: d.language, kinds: d.kinds, scope: d.scope }));
  });

  onDestination('edit', async (req, res, visit, d) => {
    const values: Record<string, string | string[]> = { kinds: [], ...sentValues(req, EDIT_FIELDS) };
    const text = (name: string) => (typeof values[name] === 'string' ? values[name] : undefined);
    const url = text('url')?.trim() ? text('url') : undefined;
    const kinds = ([] as string[]).concat(values.kinds ?? []);
    const input = { name: text('name'), description: text('description'), url, language: text('language'), kinds, scope: text('scope') };
    const outcome = await deps.operations.run('AdminUpdateDestination', { id: d.id, input }, visit.session.context);
    if (!outcome.ok) return editPage(res, visit, d, refused(values, outcome.error, EDIT_FIELDS));
    afterForm(res, destinationPath(visit, d.id), 'updated');
  });

  onDestination('pause', async (_req, res, visit, d) => {
    const outcome = await deps.operations.run('AdminPauseDestination', { id: d.id }, visit.session.context);
    if (!outcome.ok) return adminFailure(res, visit, 'webhooks', outcome.error, destinationPath(visit, d.id));
    afterForm(res, destinationPath(visit, d.id), 'paused');
  });

  onDestination('enable', async (_req, res, visit, d) => {
    const outcome = await deps.operations.run('AdminEnableDestination', { id: d.id }, visit.session.context);
    if (!outcome.ok) return adminFailure(res, visit, 'webhooks', outcome.error, destinationPath(visit, d.id));
    afterForm(res, destinationPath(visit, d.id), 'enabled');
  });

  confirmed(
    'delete',
    (
      d,
      form,
    ) => html`<p>Delete the destination <strong>${titleOf(d)}</strong> (${labelOf(FORMAT_NAMES, d.format)}, <code>${d.url}</code>) and its retained deliveries?</p>
<p>Nothing more is sent to it. This cannot be undone.</p>${form}`,
    async (_req, res, visit, d) => {
      const outcome = await deps.operations.run('AdminDeleteDestination', { id: d.id }, visit.session.context);
      if (!outcome.ok) return adminFailure(res, visit, 'webhooks', outcome.error, destinationPath(visit, d.id));
      afterForm(res, webhooksPath(visit), 'deleted');
    },
  );

  mountDeliveryPages(router, deps, options.maxAttempts);
}
