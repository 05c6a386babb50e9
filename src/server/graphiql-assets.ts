/**
 * GraphiQL without a CDN: yoga's default page loads GraphiQL's script, styles and editor workers
 * from a public CDN, so it stays blank on a machine without internet. The same build ships in
 * the `@graphql-yoga/render-graphiql` package; this module serves its parts from this service
 * under `/graphiql/` and renders the page that loads them (docs/dashboard.md#graphiql).
 */
import type Koa from 'koa';
import type { GraphiQLOptions } from 'graphql-yoga';

export const GRAPHIQL_ASSETS_PATH = '/graphiql/';

interface GraphiQLBundle {
  js: string;
  css: string;
  favicon: string;
  editorWorkerService: string;
  jsonWorker: string;
  graphqlWorker: string;
}

const ASSETS: Record<string, { type: string; part: keyof GraphiQLBundle }> = {
  'graphiql.js': { type: 'text/javascript; charset=utf-8', part: 'js' },
  'graphiql.css': { type: 'text/css; charset=utf-8', part: 'css' },
  'editor.worker.js': { type: 'text/javascript; charset=utf-8', part: 'editorWorkerService' },
  'json.worker.js': { type: 'text/javascript; charset=utf-8', part: 'jsonWorker' },
  'graphql.worker.js': { type: 'text/javascript; charset=utf-8', part: 'graphqlWorker' },
};

let bundle: Promise<GraphiQLBundle> | undefined;

/** The bundle is about 9 MB of text: loaded on the first GraphiQL request, not at start. */
function loadBundle(): Promise<GraphiQLBundle> {
  bundle ??= import('@graphql-yoga/render-graphiql/graphiql');
  return bundle;
}

/** Koa middleware serving GraphiQL's script, styles and workers under `/graphiql/`. */
export function graphiqlAssets(): Koa.Middleware {
  return async (ctx, next) => {
    if (!ctx.path.startsWith(GRAPHIQL_ASSETS_PATH)) {
      return next();
    }
    const asset = ASSETS[ctx.path.slice(GRAPHIQL_ASSETS_PATH.length)];
    if (asset === undefined || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) {
      return next();
    }
    const content = (await loadBundle())[asset.part];
    ctx.status = 200;
    ctx.set('Content-Type', asset.type);
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.body = ctx.method === 'GET' ? content : '';
    ctx.length = Buffer.byteLength(content);
  };
}

/** yoga's `renderGraphiQL`: the GraphiQL page, loading every part from `/graphiql/`. */
export async function renderLocalGraphiQL(options: GraphiQLOptions): Promise<string> {
  const { favicon } = await loadBundle();
  const base = GRAPHIQL_ASSETS_PATH;
  const title = escapeHtml(options.title ?? 'GraphiQL');
  // JSON inside a <script>: "<" is escaped so no value can close the element.
  const settings = JSON.stringify(options).replace(/</g, '\\u003c');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${title}</title>
<link rel="icon" href="${favicon}">
<link rel="stylesheet" href="${base}graphiql.css">
</head>
<body id="body" class="no-focus-outline">
<noscript>GraphiQL needs JavaScript.</noscript>
<div id="root"></div>
<script>
self.MonacoEnvironment = {
  globalAPI: false,
  getWorkerUrl: function (_moduleId, label) {
    var files = { editorWorkerService: 'editor.worker.js', json: 'json.worker.js', graphql: 'graphql.worker.js' };
    return '${base}' + (files[label] || files.editorWorkerService);
  },
};
</script>
<script src="${base}graphiql.js"></script>
<script>YogaGraphiQL.renderYogaGraphiQL(document.getElementById('root'), ${settings});</script>
</body>
</html>`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
