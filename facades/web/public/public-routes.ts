import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ResultOf } from '@graphql-typed-document-node/core';
import { FAQ_PATH, PUBLIC, resourceTag, type Config } from '../../../core/index.ts';
import { schema, type Contexts } from '../../../schema/index.ts';
import * as documents from '../../generated/web-public.ts';
import { Operations, type OperationOutcome } from '../../operation-runner.ts';
import { event, opportunity, organization } from '../../representations/resources.ts';
import { etagOf, type CachedPage, type PageCache } from '../../rest/page-cache.ts';
import { ifNoneMatch, pathId } from '../../rest/route.ts';
import { headerSafe, pageHeaders, renderPage } from '../../kit/html.ts';
import { siteHeader } from '../../kit/page-support.ts';
import type { PublicPageOperations } from './public-page-documents.ts';
import { faqView } from './faq-views.ts';
import { eventView, homeView, notFoundView, opportunityView, organizationView, type PageParts } from './public-views.ts';

// The pages behind the links Packline hands out (an organization's profile_url, an opportunity's
// or an event's url, an FAQ entry's faqUrl) and its home page. Each runs its named operation as the public actor, renders
// the REST representation, and is kept in the REST API's page cache under the same tags, so a
// change retires the page and its API answer together.

export interface PublicPagesOptions {
  contexts: Contexts;
  config: Pick<Config, 'publicBaseUrl' | 'publicSiteUrl'>;
  /** The REST API's page cache: same feed, same tags. */
  cache: PageCache;
}

export interface PublicPages {
  /** True for `/`, `/faq` and the public pages' addresses. */
  handles(url: string): boolean;
  handle(req: IncomingMessage, res: ServerResponse, requestId: string): void | Promise<void>;
}

interface PublicPage<N extends keyof PublicPageOperations & string> {
  operation: N;
  /** The resource, rendered from its REST representation; null when the operation found none. */
  view(data: OperationData<N>): PageParts | null;
  /** What the page shows, as change-feed tags; `data` is undefined when there is no such resource. */
  tags(id: string, data: OperationData<N> | undefined): string[];
}

type OperationData<N extends keyof PublicPageOperations> = ResultOf<PublicPageOperations[N]>;

const page = <N extends keyof PublicPageOperations & string>(p: PublicPage<N>) => p;

/** Each kind of public page, by the first segment of its address (core/visibility.ts builds the links). */
const PAGES = {
  organizations: page({
    operation: 'PublicOrganizationPage',
    view: (data) => (data.directoryOrganization ? organizationView(organization.json(data.directoryOrganization)) : null),
    tags: (id) => [resourceTag('organization', id)],
  }),
  opportunities: page({
    operation: 'PublicOpportunityPage',
    view: (data) => (data.opportunity ? opportunityView(opportunity.json(data.opportunity)) : null),
    // The organization's name is on the page: a change of the organization retires it too.
    tags: (id, data) => [
      resourceTag('need', id),
      ...(data?.opportunity ? [resourceTag('organization', data.opportunity.organization.id)] : []),
    ],
  }),
  events: page({
    operation: 'PublicEventPage',
    view: (data) => (data.event ? eventView(event.json(data.event)) : null),
    tags: (id, data) => [resourceTag('event', id), ...(data?.event ? [resourceTag('organization', data.event.host.id)] : [])],
  }),
};

type PageKind = keyof typeof PAGES;
const ADDRESS = new RegExp(`^/(${Object.keys(PAGES).join('|')})/([^/]+)$`);
/** Browsers and chat unfurlers revalidate each time: a withdrawn need disappears at once. */
const CACHE_CONTROL = 'public, no-cache';
const FAQ_KEY = 'page:faq';

export function createPublicPages({ contexts, config, cache }: PublicPagesOptions): PublicPages {
  const operations = Operations.generated(schema, documents);
  const home = pageOf(200, homeView(config), []);

  const pathOf = (url: string) => {
    const q = url.indexOf('?');
    return q === -1 ? url : url.slice(0, q);
  };

  return {
    handles: (url) => {
      const path = pathOf(url);
      return path === '/' || path === FAQ_PATH || ADDRESS.test(path);
    },
    handle(req, res, requestId) {
      const path = pathOf(req.url ?? '/');
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8', 'x-request-id': requestId });
        return void res.end(`${req.method} is not allowed here\n`);
      }
      // The FAQ is about this service (its API, webhooks, connectors): served here even when the site is elsewhere.
      if (path === FAQ_PATH) return answer(req, res, requestId, FAQ_KEY, renderFaq);
      if (config.publicSiteUrl !== undefined) {
        res.writeHead(302, {
          location: headerSafe(`${config.publicSiteUrl}${path}`),
          'cache-control': 'no-store',
          'x-request-id': requestId,
        });
        return void res.end();
      }
      if (path === '/') return send(req, res, requestId, home);
      const [, kind, rawId] = ADDRESS.exec(path) as unknown as [string, PageKind, string];
      const id = decodedId(rawId);
      if (id === undefined) return send(req, res, requestId, pageOf(404, notFoundView(path), []));
      return answer(req, res, requestId, `page:${kind}\u0000${id}`, () => render(kind, id, path));
    },
  };

  function answer(req: IncomingMessage, res: ServerResponse, requestId: string, key: string, make: () => Promise<CachedPage>) {
    const found = cache.peek(key) ?? cache.compute(key, make);
    if (found instanceof Promise) return found.then((p) => send(req, res, requestId, p));
    return send(req, res, requestId, found);
  }

  /** The FAQ: the same for everyone, cached as the other pages are (its links change only with their base). */
  async function renderFaq(): Promise<CachedPage> {
    const outcome = await operations.run('PublicFaqPage', {}, contexts.forActor(PUBLIC));
    if (!outcome.ok) throw outcome.error;
    return pageOf(200, faqView(outcome.data.faqEntries), []);
  }

  async function render(kind: PageKind, id: string, path: string): Promise<CachedPage> {
    const spec = PAGES[kind] as PublicPage<keyof PublicPageOperations & string>;
    const outcome = (await operations.run(spec.operation, { id }, contexts.forActor(PUBLIC))) as OperationOutcome<never>;
    if (!outcome.ok) {
      if (outcome.error.code !== 'not_found' && outcome.error.code !== 'invalid_input') throw outcome.error;
      return pageOf(404, notFoundView(path), spec.tags(id, undefined));
    }
    const parts = spec.view(outcome.data);
    return parts ? pageOf(200, parts, spec.tags(id, outcome.data)) : pageOf(404, notFoundView(path), spec.tags(id, undefined));
  }
}

function pageOf(status: number, parts: PageParts, tags: readonly string[]): CachedPage {
  const body = Buffer.from(renderPage(parts.title, parts.body, { head: parts.head, header: siteHeader(null) }));
  return { status, body, etag: etagOf(body), tags };
}

function send(req: IncomingMessage, res: ServerResponse, requestId: string, page: CachedPage): void {
  const headers = pageHeaders(requestId, { headers: { 'cache-control': CACHE_CONTROL, etag: page.etag } });
  if (page.status === 200 && ifNoneMatch(req.headers['if-none-match'], page.etag)) {
    res.writeHead(304, { 'cache-control': CACHE_CONTROL, etag: page.etag, 'x-request-id': requestId });
    return void res.end();
  }
  res.writeHead(page.status, { ...headers, 'content-length': String(page.body.length) });
  res.end(req.method === 'HEAD' ? undefined : page.body);
}

/** The path's id, when it is one an address could carry; undefined answers the not-found page. */
function decodedId(raw: string): string | undefined {
  try {
    return pathId(decodeURIComponent(raw));
  } catch {
    return undefined;
  }
}
