import { readFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';
import { answerAsset, type StaticAsset, staticAsset } from '../kit/static-asset.ts';
import type { Reply } from './reply.ts';

// The interactive reference at /api/v1/docs: Scalar's standalone bundle, served from this
// process, rendering /api/v1/openapi.json. Nothing is fetched from another origin.

export const DOCS_PATH = '/docs';
const BUNDLE_PATH = `${DOCS_PATH}/scalar.js`;
const INIT_PATH = `${DOCS_PATH}/reference.js`;
const REPAIRS_PATH = `${DOCS_PATH}/repairs.js`;
/** Not `api-reference`: the bundle would mount itself there at load, before our options. */
const MOUNT_ID = 'reference';

/**
 * Scalar's light theme with every text colour at 4.5:1 or more on its backgrounds (its greys,
 * method badges and code tokens fall short), and code in one readable colour.
 */
const READABLE_COLOURS = `.light-mode, html .light-mode {
  --scalar-color-1: #1b1b1b !important; --scalar-color-2: #404040 !important; --scalar-color-3: #505050 !important;
  --scalar-color-accent: #0b5394 !important; --scalar-color-blue: #0b5394 !important; --scalar-color-green: #0a6b2d !important;
  --scalar-color-red: #a30000 !important; --scalar-color-orange: #8a4b00 !important; --scalar-color-yellow: #6b5900 !important;
  --scalar-color-purple: #6b2fa0 !important; --scalar-color-pink: #a0135b !important; --scalar-color-cyan: #00606b !important;
}
.light-mode .hljs, .light-mode .hljs * { color: var(--scalar-color-1) !important; }`;

/** Scalar's options. No proxy: "try it" requests go straight to this server, as the CSP enforces. */
const SCALAR_OPTIONS = {
  metaData: { title: 'Packline Public API reference' },
  // Prefix of every id in the page; named here so headings can build theirs (see initScript).
  slug: 'public-api',
  // Otherwise Inter is loaded from fonts.scalar.com.
  withDefaultFonts: false,
  telemetry: false,
  // Scalar's AI chat talks to Scalar's servers.
  agent: { disabled: true },
  // The "Open API Client" button leads to client.scalar.com.
  hideClientButton: true,
  showDeveloperTools: 'never',
  documentDownloadType: 'json',
  persistAuth: false,
  // Accessibility (axe-core, WCAG 2.1 AA; test/e2e/api-reference.test.ts): one light theme whose
  // colours are all readable, and no client-library tab list (its tabs are not tabs to assistive
  // technology); the request examples stay, in curl.
  forceDarkModeState: 'light',
  hideDarkModeToggle: true,
  hiddenClients: true,
  customCss: READABLE_COLOURS,
};

/**
 * Same-origin only. Scalar injects its stylesheets as `<style>` elements without a nonce, hence
 * `'unsafe-inline'` for styles (never for scripts); its icons are `data:` SVG masks.
 */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const PAGE_HEADERS = ['content-security-policy', DOCS_CSP, 'referrer-policy', 'no-referrer', 'x-frame-options', 'DENY'];
/** Scripts are referenced with `?v=<hash>`, so a new version is a new URL. */
const SCRIPT_CACHE = 'public, max-age=31536000, immutable';
const PAGE_CACHE = 'public, max-age=300';

export interface ApiDocsOptions {
  /** Where the API is mounted, such as `/api/v1`. */
  prefix: string;
}

/** Answers GET requests under `<prefix>/docs`: the page and its three scripts; anything else is a 404. */
export function createApiDocs({ prefix }: ApiDocsOptions) {
  let assets: Map<string, StaticAsset> | undefined;
  // Read on first use: most processes never serve the reference.
  const load = () => (assets ??= loadAssets(prefix));

  return async function docs(req: IncomingMessage, reply: Reply, path: string): Promise<void> {
    const asset = load().get(path);
    if (!asset) return reply.problem('not_found', `No endpoint at ${prefix}${path}`);
    const answer = await answerAsset(asset, req.headers['accept-encoding'], req.headers['if-none-match']);
    for (let i = 0; i < answer.headers.length; i += 2) reply.header(answer.headers[i]!, answer.headers[i + 1]!);
    if (answer.fresh) return reply.notModified(answer.etag, asset.cacheControl);
    return reply.send(200, answer.body, { type: asset.type, cacheControl: asset.cacheControl });
  };
}

function loadAssets(prefix: string): Map<string, StaticAsset> {
  const bundle = staticAsset(
    readFileSync(createRequire(import.meta.url).resolve('@scalar/api-reference/browser/standalone.js')),
    'text/javascript; charset=utf-8',
    SCRIPT_CACHE,
  );
  const init = staticAsset(Buffer.from(initScript(prefix)), 'text/javascript; charset=utf-8', SCRIPT_CACHE);
  const repairs = staticAsset(Buffer.from(ARIA_REPAIRS), 'text/javascript; charset=utf-8', SCRIPT_CACHE);
  const page = staticAsset(
    Buffer.from(pageHtml(prefix, bundle.hash, init.hash, repairs.hash)),
    'text/html; charset=utf-8',
    PAGE_CACHE,
    PAGE_HEADERS,
  );
  return new Map([
    [DOCS_PATH, page],
    [BUNDLE_PATH, bundle],
    [INIT_PATH, init],
    [REPAIRS_PATH, repairs],
  ]);
}

/**
 * What Scalar's markup lacks for assistive technology, added as it renders (no option covers it):
 * names for its search landmark and its icon buttons, no `aria-selected` on plain buttons (it
 * belongs to tabs and options), and scrolling code blocks reachable from the keyboard. Elements
 * are found by role, relation and element name, not by Scalar's generated class names; every
 * change is made only where it is missing, so running again changes nothing. Each render is
 * repaired once per frame, only in the parts it added or changed.
 */
const ARIA_REPAIRS = `(function () {
  if (window.packlineRepairs) return;
  window.packlineRepairs = true;
  function each(root, selector, fn) {
    if (root.matches(selector)) fn(root);
    root.querySelectorAll(selector).forEach(fn);
  }
  // A code block's copy button controls its pre element (its only text is hidden until hovered);
  // another button without text is an icon, named by its title if it has one.
  function nameOf(button) {
    var controlled = document.getElementById(button.getAttribute('aria-controls') || '');
    if (controlled && controlled.localName === 'pre') return 'Copy code';
    return button.textContent.trim() ? null : button.getAttribute('title') || 'More';
  }
  function repair(root) {
    each(root, '[role=search]:not([aria-label])', function (el) { el.setAttribute('aria-label', 'Search the reference'); });
    each(root, 'button[aria-selected]:not([role])', function (el) { el.removeAttribute('aria-selected'); });
    each(root, 'button:not([aria-label], [aria-labelledby], [aria-hidden=true])', function (el) {
      var name = nameOf(el);
      if (name) el.setAttribute('aria-label', name);
    });
    each(root, 'pre code:not([tabindex])', function (el) { el.setAttribute('tabindex', '0'); });
  }
  var changed = new Set();
  function flush() {
    changed.forEach(function (el) { if (el.isConnected) repair(el); });
    changed.clear();
  }
  new MutationObserver(function (records) {
    if (changed.size === 0) requestAnimationFrame(flush);
    records.forEach(function (record) {
      if (record.type === 'attributes') changed.add(record.target);
      else record.addedNodes.forEach(function (node) { if (node.nodeType === 1) changed.add(node); });
    });
  }).observe(document.documentElement, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-selected'] });
  repair(document.documentElement);
})();
`;

/**
 * Mounts Scalar: a served file rather than an inline script, so the CSP needs no nonce. A heading
 * of the description gets the id `<slug>/<heading slug>`, which Scalar shows as `#<heading slug>`:
 * the links the service gives out, such as `/api/v1/docs#webhooks`, land on their section.
 */
function initScript(prefix: string): string {
  const options = { url: `${prefix}/openapi.json`, ...SCALAR_OPTIONS };
  return `Scalar.createApiReference('#${MOUNT_ID}', Object.assign(${JSON.stringify(options)}, {
  generateHeadingSlug: function (heading) { return ${JSON.stringify(`${SCALAR_OPTIONS.slug}/`)} + heading.slug; },
}));
`;
}

function pageHtml(prefix: string, bundleHash: string, initHash: string, repairsHash: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${SCALAR_OPTIONS.metaData.title}</title>
<link rel="icon" href="data:,">
</head>
<body>
<main id="${MOUNT_ID}"></main>
<script src="${prefix}${BUNDLE_PATH}?v=${bundleHash}"></script>
<script src="${prefix}${INIT_PATH}?v=${initHash}"></script>
<script src="${prefix}${REPAIRS_PATH}?v=${repairsHash}"></script>
</body>
</html>
`;
}
