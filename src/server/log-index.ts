/**
 * Folder URLs of the log server (docs/logs.md#folder-urls): inside a build's log folder, a
 * folder answers its manifest tree to clients asking for JSON and an HTML index page to
 * browsers. Folders above a build's (the tenant and uuid-prefix levels) are not listed, so
 * build ids cannot be enumerated.
 */
import type Koa from 'koa';
import { manifestTree, type ManifestDocument, type ManifestEntry } from '../executor/log-manifest';

/** Segments of a build's log folder below `logs.dir`: `<tenant>/<uu>/<uuid>`. */
export const BUILD_FOLDER_DEPTH = 3;

/** Whether a folder (its path below `logs.dir`) may be listed: the build's folder or below. */
export function listableFolder(relative: string): boolean {
  return relative.split('/').filter((segment) => segment !== '' && segment !== '.').length >= BUILD_FOLDER_DEPTH;
}

/** Answer a folder: the manifest tree (JSON) or an index page (HTML), by the Accept header. */
export async function answerFolder(
  ctx: Koa.Context,
  folder: { root: string; path: string; urlPath: string; atBuildRoot: boolean },
): Promise<void> {
  const { tree, truncated } = await manifestTree(folder.root, folder.path);
  ctx.status = 200;
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Content-Security-Policy', 'sandbox');
  ctx.set('Access-Control-Allow-Origin', '*');
  ctx.set('Vary', 'Accept');
  if (ctx.accepts('html', 'json') === 'json') {
    const document: ManifestDocument = { tree, index_links: false, ...(truncated ? { truncated: true as const } : {}) };
    ctx.type = 'application/json; charset=utf-8';
    ctx.body = JSON.stringify(document);
    return;
  }
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = indexPage(folder.urlPath, tree, !folder.atBuildRoot, truncated);
}

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

function row(href: string, label: string, modified: string, size: string): string {
  return `<tr><td><a href="${escapeHtml(href)}">${escapeHtml(label)}</a></td><td>${modified}</td><td>${size}</td></tr>`;
}

/** The HTML listing of one folder: its entries (folders first) with modification time and size. */
export function indexPage(urlPath: string, tree: ManifestEntry[], withParent: boolean, truncated: boolean): string {
  const rows: string[] = [];
  if (withParent) {
    rows.push(row('../', '../', '', ''));
  }
  for (const entry of tree) {
    const href = encodeURIComponent(entry.name);
    if ('children' in entry) {
      rows.push(row(`${href}/`, `${entry.name}/`, '', '-'));
    } else {
      const modified = new Date(entry.last_modified * 1000).toISOString().slice(0, 19).replace('T', ' ');
      rows.push(row(href, entry.name, modified, String(entry.size)));
    }
  }
  const title = `Index of ${escapeHtml(urlPath)}`;
  return [
    '<!DOCTYPE html>',
    `<html><head><meta charset="utf-8"><title>${title}</title></head><body>`,
    `<h1>${title}</h1>`,
    '<table><thead><tr><th>Name</th><th>Last modified (UTC)</th><th>Size</th></tr></thead><tbody>',
    ...rows,
    '</tbody></table>',
    truncated ? '<p>The listing is truncated.</p>' : '',
    '</body></html>',
    '',
  ].join('\n');
}
