import { type StaticAsset, staticAsset } from '../kit/static-asset.ts';
import { GRAPHQL_PATH } from './paths.ts';

// GraphiQL as graphql-yoga builds it (`@graphql-yoga/render-graphiql`: the bundle, its
// stylesheet and the editor's three web workers), served as files from this process instead of
// one page of inline scripts, so the explorer's CSP needs neither a nonce nor `blob:`.

export const ASSETS_PREFIX = `${GRAPHQL_PATH}/explorer/`;

/** What GraphiQL's theme variables apply to. */
const THEMED = '.graphiql-container,.graphiql-dialog,.graphiql-tooltip,[data-radix-popper-content-wrapper]';
/** The light theme's text colours, darkened to a contrast of at least 4.5:1 (WCAG AA) on its backgrounds. */
const LIGHT_TEXT =
  '--color-secondary:242,51%,48%;--color-tertiary:188,100%,25%;--color-info:208,100%,34%;--color-success:158,60%,26%;--color-warning:36,100%,26%;--color-error:13,93%,40%';

/** The page around GraphiQL: a one-line bar, then the explorer filling the window. */
const PAGE_STYLE = `html,body.packline-explorer{height:100%;margin:0}
body.packline-explorer{display:flex;flex-direction:column;font-family:system-ui,sans-serif}
.packline-explorer-bar{display:flex;flex-wrap:wrap;align-items:center;gap:0 1rem;padding:0 1rem;background:#123;color:#fff}
.packline-explorer-bar h1{font-size:1rem;margin:0}.packline-explorer-bar p{margin:0;font-size:.9rem}
.packline-explorer-bar form{margin:0 0 0 auto}
.packline-explorer-bar button{min-height:44px;min-width:44px;padding:.3rem .8rem;font-size:1rem;cursor:pointer}
.packline-explorer-bar button:focus{outline:3px solid #f90;outline-offset:2px}
#explorer{flex:1;min-height:0;min-width:0}
.graphiql-logo span{color:#1b2b44}
body.packline-explorer.graphiql-light :is(${THEMED}){${LIGHT_TEXT}}
@media not (prefers-color-scheme:dark){body.packline-explorer:not(.graphiql-dark) :is(${THEMED}){${LIGHT_TEXT}}}
@media (max-width:40rem){.packline-explorer .graphiql-logo,.packline-explorer .graphiql-horizontal-drag-bar{display:none}
.packline-explorer .graphiql-sessions>div:has(>.graphiql-editors){flex-direction:column}
.packline-explorer .graphiql-editors,.packline-explorer .graphiql-response{min-width:0;min-height:12rem}
.packline-explorer .graphiql-container,.packline-explorer .graphiql-main,.packline-explorer .graphiql-sessions{min-width:0}}`;

/** Names are versioned by `?v=<hash>`: a new release is a new URL. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
const JS = 'text/javascript; charset=utf-8';

export interface ExplorerAssets {
  /** By path under ASSETS_PREFIX, such as `graphiql.js`. */
  files: Map<string, StaticAsset>;
  /** Versioned addresses for the page. */
  urls: { css: string; bundle: string; start: string };
}

/** Imported on first use (9 MB of text): most processes never serve the explorer. */
export async function loadExplorerAssets(): Promise<ExplorerAssets> {
  const { css, editorWorkerService, graphqlWorker, js, jsonWorker } = await import('@graphql-yoga/render-graphiql/graphiql');
  const files = new Map<string, StaticAsset>();
  const add = (name: string, body: string, type = JS) => {
    const file = staticAsset(Buffer.from(body), type, IMMUTABLE);
    files.set(name, file);
    return `${ASSETS_PREFIX}${name}?v=${file.hash}`;
  };
  const workers = {
    editorWorkerService: add('editor.worker.js', editorWorkerService),
    json: add('json.worker.js', jsonWorker),
    graphql: add('graphql.worker.js', graphqlWorker),
  };
  const urls = {
    css: add('graphiql.css', `${css}\n${PAGE_STYLE}`, 'text/css; charset=utf-8'),
    bundle: add('graphiql.js', js),
    start: add('start.js', startScript(workers)),
  };
  return { files, urls };
}

/**
 * Runs before the bundle (Monaco reads its environment when it loads) and mounts GraphiQL once
 * the page is parsed. The form token the explorer's requests carry is read from the page: this
 * file is the same for every browser.
 */
function startScript(workers: Record<string, string>): string {
  const options = {
    endpoint: GRAPHQL_PATH,
    title: 'Packline GraphQL explorer',
    defaultQuery:
      '# Internal GraphQL: the whole schema, as internal teams see it.\n{\n  opportunities(first: 5) {\n    edges { node { id title organization { name } } }\n  }\n}\n',
    shouldPersistHeaders: false,
    credentials: 'same-origin',
    method: 'POST',
  };
  return `(function () {
  'use strict';
  var workers = ${JSON.stringify(workers)};
  self.MonacoEnvironment = { globalAPI: false, getWorkerUrl: function (_id, label) { return workers[label] || workers.editorWorkerService; } };
  document.addEventListener('DOMContentLoaded', function () {
    var token = document.querySelector('meta[name="packline-explorer-token"]').getAttribute('content');
    var options = Object.assign(${JSON.stringify(options)}, { additionalHeaders: { 'x-packline-explorer': token } });
    var root = document.getElementById('explorer');
    YogaGraphiQL.renderYogaGraphiQL(root, options);
    // GraphiQL's tabs put role=tab on the list item around the tab's button (interactive inside
    // interactive): the button takes the role and the state (the item's active class), the item
    // becomes presentation.
    new MutationObserver(function () {
      root.querySelectorAll('li.graphiql-tab').forEach(function (item) {
        var button = item.querySelector('.graphiql-tab-button');
        if (!button) return;
        var selected = item.classList.contains('graphiql-tab-active') ? 'true' : 'false';
        if (item.getAttribute('role') !== 'presentation') item.setAttribute('role', 'presentation');
        if (item.hasAttribute('aria-selected')) item.removeAttribute('aria-selected');
        if (button.getAttribute('role') !== 'tab') button.setAttribute('role', 'tab');
        if (button.getAttribute('aria-selected') !== selected) button.setAttribute('aria-selected', selected);
      });
    }).observe(root, { childList: true, subtree: true, attributes: true, attributeFilter: ['aria-selected', 'role', 'class'] });
  });
})();
`;
}
