/**
 * The browser-facing routes: GraphiQL's local assets, the static sites of `web.sites` and the
 * built-in dashboard at `/` (docs/dashboard.md, docs/configuration.md#keys). Mounted after the API
 * routes, so it only sees what they leave.
 */
import path from 'node:path';
import type Koa from 'koa';
import type { ServiceConfig } from '../config/service';
import { PACKAGE_ROOT } from '../model/package-root';
import { graphiqlAssets } from './graphiql-assets';
import { spaSite } from './spa-site';

/** Where `npm run web:build` (and `npm start`) puts the dashboard build. */
export const DASHBOARD_BUILD_DIR = path.join(PACKAGE_ROOT, 'web', 'dist');

export interface WebRoutesOptions {
  /** The dashboard build (tests); defaults to DASHBOARD_BUILD_DIR. */
  dashboardDir?: string;
}

/** Every static site of the configuration, longest path first, then the dashboard unless a site takes `/`. */
export function webRoutes(config: Pick<ServiceConfig, 'web'>, options: WebRoutesOptions = {}): Koa.Middleware[] {
  const sites = [...config.web.sites].sort((a, b) => b.path.length - a.path.length);
  const middleware: Koa.Middleware[] = [graphiqlAssets()];
  for (const site of sites) {
    middleware.push(spaSite({ dir: site.dir, mountPath: site.path }));
  }
  const rootTaken = sites.some((site) => site.path.replace(/\/+$/, '') === '');
  if (config.web.dashboard && !rootTaken) {
    middleware.push(spaSite({ dir: options.dashboardDir ?? DASHBOARD_BUILD_DIR, mountPath: '/', missingBuild }));
  }
  return middleware;
}

function missingBuild(ctx: Koa.Context): void {
  ctx.status = 503;
  ctx.type = 'text/html; charset=utf-8';
  ctx.set('Cache-Control', 'no-cache');
  ctx.body =
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sluice</title></head><body>' +
    '<h1>The dashboard is not built</h1><p>Run <code>npm run web:build</code> (or <code>npm start</code>, ' +
    'which builds it) and reload. The API is at <a href="/graphql">/graphql</a> and <a href="/api/info">/api</a>.</p>' +
    '</body></html>';
}
