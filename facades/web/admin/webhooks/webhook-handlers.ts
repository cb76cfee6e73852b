import type { Request, Response } from 'express';
import { DomainError, MAX_PAGE_SIZE, SIGNAL_TYPES, type TeamChatProvider, teamChatAuthorizeUrl } from '../../../../core/index.ts';
import { flashCookie, takeFlash, type Flash } from '../../../kit/flash.ts';
import { freshForm, refused, refusedAll, refusedStatus, sentValues, type FormState } from '../../../kit/forms.ts';
import { seeOther } from '../../../kit/html.ts';
import { resumedForm } from '../../../kit/resume.ts';
import { field, pathParam, requestIdOf, type PageDeps } from '../../../kit/page-support.ts';
import { COPY_SCRIPT_PATH, REFRESH_SCRIPT_PATH } from '../admin-paths.ts';
import { asPageFailure, failingSince } from '../deliveries/index.ts';
import { adminFailure, adminPage, adminVisit, afterForm, notice, type AdminVisit } from '../layout.ts';
import { STATUS_FILTERS, destinationView } from './webhook-detail-view.ts';
import { CREATE_FIELDS, EDIT_FIELDS, titleOf, type Destination } from './webhook-fields.ts';
import { checkDestinationForm, PLAIN_WORDS } from './webhook-form-check.ts';
import { CONFIRM_TITLES, confirmView, editView, type ConfirmedAction } from './webhook-form-view.ts';
import { isFull, listView } from './webhook-list-view.ts';
import { destinationPath, webhooksPath } from './webhook-paths.ts';

// The webhook pages' handlers: each reads its request, runs one operation and hands a view its data.

export interface WebhookPagesOptions {
  /** The team-chat OAuth provider, when the connection flow is configured. */
  teamChat: TeamChatProvider | undefined;
  publicBaseUrl: string;
  /** Attempts per delivery (the retry schedule's length). */
  maxAttempts: number;
}

type SimpleOperation = 'AdminPauseDestination' | 'AdminEnableDestination';
type Handler = (req: Request, res: Response) => Promise<void>;
/** What a POST does to one destination of the organization in the address. */
export type DestinationAction = (req: Request, res: Response, visit: AdminVisit, d: Destination) => Promise<void>;

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
const NO_TEAM_CHAT =
  'The team-chat connection flow is not set up on this service; ' +
  'paste the channel’s incoming webhook URL with the team-chat format instead';

const notFound = (id: string) => new DomainError('not_found', `No webhook destination with id '${id}'`);

/** A query parameter when it is one of `known`; anything else reads as absent. */
function oneOf(value: unknown, known: readonly string[]): string | undefined {
  return typeof value === 'string' && known.includes(value) ? value : undefined;
}

function settingsOf(req: Request, visit: AdminVisit) {
  const kinds = ([] as unknown[])
    .concat((req.body as Record<string, unknown>).kinds ?? [])
    .filter((k): k is string => typeof k === 'string');
  return { organizationId: visit.org.id, language: field(req, 'language'), kinds, scope: field(req, 'scope') };
}

export function webhookHandlers(deps: PageDeps, options: WebhookPagesOptions) {
  async function destinations(visit: AdminVisit): Promise<Destination[]> {
    const outcome = await deps.operations.run('AdminDestinations', { id: visit.org.id }, visit.session.context);
    if (!outcome.ok) throw outcome.error;
    return outcome.data.webhookDestinations;
  }

  /** The destination when it belongs to the organization in the address. */
  const owned = async (visit: AdminVisit, id: string) => (await destinations(visit)).find((d) => d.id === id);

  function listPage(req: Request, res: Response, visit: AdminVisit, list: Destination[], form = freshForm()) {
    const provider = options.teamChat;
    const view = { list, form, done: notice(req, LIST_DONE), teamChat: provider };
    // The team-chat form is answered with a redirect to the provider: the CSP must let it lead there.
    const formAction = provider && !isFull(visit, list) ? [new URL(provider.authorizeUrl).origin] : [];
    const status = refusedStatus(form);
    adminPage(res, visit, 'webhooks', 'Webhooks', listView(deps, visit, view), { formAction, status });
  }

  async function destinationPage(req: Request, res: Response, visit: AdminVisit, id: string) {
    const shown = await takeFlash(deps, req, res, visit.session.token);
    const after = typeof req.query.after === 'string' ? req.query.after : undefined;
    // Filters: known values only; anything else shows every delivery.
    const status = oneOf(req.query.status, STATUS_FILTERS);
    const type = oneOf(req.query.type, SIGNAL_TYPES);
    const first = Math.min(MAX_PAGE_SIZE, visit.org.allowances.retainedDeliveries);
    const variables = { id, organizationId: visit.org.id, first, after, status, type };
    const outcome = await deps.operations.run('AdminDestination', variables, visit.session.context);
    if (!outcome.ok) return adminFailure(res, visit, 'webhooks', asPageFailure(outcome.error), webhooksPath(visit));
    const d = outcome.data.webhookDestination;
    // The service lets an admin of both organizations see it: the address must name its own.
    const foreign = d.organizationId !== visit.org.id;
    if (foreign) return adminFailure(res, visit, 'webhooks', notFound(id), webhooksPath(visit));
    const { edges, pageInfo } = outcome.data.webhookDeliveries;
    const deliveries = edges.map((e) => e.node);
    const failing = d.status === 'active' && !after && !status && !type ? failingSince(deliveries) : null;
    const waiting = req.query.done === 'test' && deliveries.some((x) => x.status === 'pending');
    const view = {
      destination: d,
      deliveries,
      pageInfo,
      shown,
      done: notice(req, DESTINATION_DONE),
      failing,
      waiting,
      filters: { status, type, after },
      maxAttempts: options.maxAttempts,
    };
    adminPage(res, visit, 'webhooks', shown?.title ?? titleOf(d), destinationView(deps, visit, view), {
      scripts: [...(shown ? [COPY_SCRIPT_PATH] : []), ...(waiting ? [REFRESH_SCRIPT_PATH] : [])],
    });
  }

  function editPage(res: Response, visit: AdminVisit, d: Destination, form: FormState) {
    const status = refusedStatus(form);
    adminPage(res, visit, 'webhooks', `Edit “${titleOf(d)}”`, editView(deps, visit, d, form), { status });
  }

  /** A GET on one destination of this organization. */
  function ofDestination(show: (req: Request, res: Response, visit: AdminVisit, d: Destination) => void): Handler {
    return async (req, res) => {
      const visit = await adminVisit(deps, req, res);
      if (!visit) return;
      const d = await owned(visit, pathParam(req, 'destination'));
      if (!d) return adminFailure(res, visit, 'webhooks', notFound(pathParam(req, 'destination')), webhooksPath(visit));
      show(req, res, visit, d);
    };
  }

  /** A POST on one destination of this organization, its CSRF token bound to the form and the id. */
  function onDestination(action: string, act: DestinationAction): Handler {
    return async (req, res) => {
      const id = pathParam(req, 'destination');
      const visit = await adminVisit(deps, req, res, `webhook-${action}\n${id}`);
      if (!visit) return;
      // Only a destination of this organization: the service checks the admin, the page checks the address.
      const d = await owned(visit, id);
      if (!d) return adminFailure(res, visit, 'webhooks', notFound(id), webhooksPath(visit));
      await act(req, res, visit, d);
    };
  }

  /** The confirmation page before `action`, whose POST `onDestination` takes. */
  const confirmed = (action: ConfirmedAction) =>
    ofDestination((_req, res, visit, d) => {
      adminPage(res, visit, 'webhooks', CONFIRM_TITLES[action], confirmView(deps, visit, action, d));
    });

  /** A one-operation action on a destination, then back to its page with `done`. */
  const simple =
    (operation: SimpleOperation, done: string): DestinationAction =>
    async (_req, res, visit, d) => {
      const outcome = await deps.operations.run(operation, { id: d.id }, visit.session.context);
      if (!outcome.ok) return adminFailure(res, visit, 'webhooks', outcome.error, destinationPath(visit, d.id));
      afterForm(res, destinationPath(visit, d.id), done);
    };

  const list: Handler = async (req, res) => {
    const visit = await adminVisit(deps, req, res);
    if (!visit) return;
    listPage(req, res, visit, await destinations(visit), resumedForm(deps.browser, req));
  };

  const create: Handler = async (req, res) => {
    const visit = await adminVisit(deps, req, res, 'webhook-create');
    if (!visit) return;
    const values = { kinds: [], ...sentValues(req, CREATE_FIELDS) };
    const mistakes = checkDestinationForm(values, 'create');
    if (Object.keys(mistakes).length) return listPage(req, res, visit, await destinations(visit), refusedAll(values, mistakes));
    const input = {
      ...settingsOf(req, visit),
      name: field(req, 'name'),
      description: field(req, 'description'),
      format: field(req, 'format') ?? '',
      url: field(req, 'url') ?? '',
    };
    const outcome = await deps.operations.run('AdminCreateDestination', { input }, visit.session.context);
    if (!outcome.ok) {
      const form = refused(values, outcome.error, CREATE_FIELDS, {}, PLAIN_WORDS);
      return listPage(req, res, visit, await destinations(visit), form);
    }
    const { secret, destination } = outcome.data.createWebhookDestination;
    // POST → 303 → GET: a reload adds nothing more. The secret crosses the redirect in the flash, once.
    const path = destinationPath(visit, destination.id);
    const flash: Flash | null = secret
      ? { title: 'Destination added', label: 'Signing secret of the new destination', secret, warning: SECRET_NOTICE }
      : null;
    if (flash) {
      return seeOther(res, path, requestIdOf(res), [flashCookie(deps.browser, visit.session.token, path, flash)]);
    }
    afterForm(res, path, 'added');
  };

  const teamChat: Handler = async (req, res) => {
    const visit = await adminVisit(deps, req, res, 'webhook-team-chat');
    if (!visit) return;
    const provider = options.teamChat;
    const back = webhooksPath(visit);
    if (!provider) return adminFailure(res, visit, 'webhooks', new DomainError('not_found', NO_TEAM_CHAT), back);
    const input = settingsOf(req, visit);
    const outcome = await deps.operations.run('AdminBeginTeamChat', { input }, visit.session.context);
    if (!outcome.ok) return adminFailure(res, visit, 'webhooks', outcome.error, back);
    const state = outcome.data.beginTeamChatConnection.state;
    seeOther(res, teamChatAuthorizeUrl(provider, options.publicBaseUrl, state), requestIdOf(res));
  };

  const destination: Handler = async (req, res) => {
    const visit = await adminVisit(deps, req, res);
    if (!visit) return;
    await destinationPage(req, res, visit, pathParam(req, 'destination'));
  };

  const editForm = ofDestination((req, res, visit, d) => {
    const { name, description, language, kinds, scope } = d;
    editPage(res, visit, d, resumedForm(deps.browser, req) ?? freshForm({ name, description, language, kinds, scope }));
  });

  const edit: DestinationAction = async (req, res, visit, d) => {
    const values: Record<string, string | string[]> = { kinds: [], ...sentValues(req, EDIT_FIELDS) };
    const mistakes = checkDestinationForm(values, 'edit');
    if (Object.keys(mistakes).length) return editPage(res, visit, d, refusedAll(values, mistakes));
    const text = (name: string) => (typeof values[name] === 'string' ? values[name] : undefined);
    const url = text('url')?.trim() ? text('url') : undefined;
    const kinds = ([] as string[]).concat(values.kinds ?? []);
    const input = {
      name: text('name'),
      description: text('description'),
      url,
      language: text('language'),
      kinds,
      scope: text('scope'),
    };
    const outcome = await deps.operations.run('AdminUpdateDestination', { id: d.id, input }, visit.session.context);
    if (!outcome.ok) return editPage(res, visit, d, refused(values, outcome.error, EDIT_FIELDS, {}, PLAIN_WORDS));
    afterForm(res, destinationPath(visit, d.id), 'updated');
  };

  const test: DestinationAction = async (req, res, visit, d) => {
    const outcome = await deps.operations.run('AdminSendTest', { id: d.id, kind: field(req, 'kind') }, visit.session.context);
    if (!outcome.ok) return adminFailure(res, visit, 'webhooks', outcome.error, destinationPath(visit, d.id));
    afterForm(res, destinationPath(visit, d.id), 'test');
  };

  const remove: DestinationAction = async (_req, res, visit, d) => {
    const outcome = await deps.operations.run('AdminDeleteDestination', { id: d.id }, visit.session.context);
    if (!outcome.ok) return adminFailure(res, visit, 'webhooks', outcome.error, destinationPath(visit, d.id));
    afterForm(res, webhooksPath(visit), 'deleted');
  };

  return {
    list,
    create,
    teamChat,
    destination,
    editForm,
    confirmed,
    onDestination,
    /** The POSTs on one destination, by the last segment of their address. */
    actions: {
      test,
      edit,
      pause: simple('AdminPauseDestination', 'paused'),
      enable: simple('AdminEnableDestination', 'enabled'),
      delete: remove,
    } satisfies Record<string, DestinationAction>,
  };
}
