/**
 * Static serving through the real server: a `web.sites` build with single-page fallback, the
 * built-in dashboard's mount (and its "not built" page), and GraphiQL loading every asset from
 * this service (docs/configuration.md#keys `web.sites`, docs/dashboard.md).
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseServiceConfig, ServiceConfigError } from '../../../src/config/service';
import { startTestServer, type TestServer } from '../../helpers/server';

describe('static sites and GraphiQL assets', () => {
  let root: string;
  let server: TestServer;

  beforeAll(async () => {
    root = mkdtempSync(path.join(os.tmpdir(), 'sluice-web-'));
    const site = path.join(root, 'legacy');
    mkdirSync(path.join(site, 'assets'), { recursive: true });
    writeFileSync(path.join(site, 'index.html'), '<!doctype html><title>legacy</title>');
    writeFileSync(path.join(site, 'assets', 'app-0123456789.js'), 'console.log(1)');
    writeFileSync(path.join(root, 'secret.txt'), 'outside');
    symlinkSync(path.join(root, 'secret.txt'), path.join(site, 'leak.txt'));
    server = await startTestServer({
      tenants: [],
      config: { web: { dashboard: true, sites: [{ path: '/legacy', dir: site }] } },
    });
  });

  afterAll(async () => {
    await server.stop();
    rmSync(root, { recursive: true, force: true });
  });

  const get = (p: string, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${p}`, { headers, redirect: 'manual' });

  it('serves files of a configured site, with long caching for hashed assets', async () => {
    const asset = await get('/legacy/assets/app-0123456789.js');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(asset.headers.get('cache-control')).toContain('immutable');
    expect(await asset.text()).toBe('console.log(1)');
  });

  it('answers deep links with the index page, and missing files with 404', async () => {
    for (const deep of [
      '/legacy/',
      '/legacy/t/example/status',
      '/legacy/t/example/build/abc',
      '/legacy/t/example/build/abc/log/job-output.txt', // the log viewer's files have extensions
      '/legacy/t/example/build/abc/log/zuul-info/inventory.yaml',
    ]) {
      const page = await get(deep);
      expect(page.status).toBe(200);
      expect(page.headers.get('cache-control')).toBe('no-cache');
      expect(await page.text()).toContain('<title>legacy</title>');
    }
    expect((await get('/legacy/assets/missing.js')).status).toBe(404);
    expect((await get('/legacy/t/example/build/abc/missing.txt')).status).toBe(404);
    expect((await get('/legacy')).status).toBe(302);
  });

  it('refuses paths leaving the directory', async () => {
    const dotted = await get('/legacy/%2e%2e/secret.txt'); // fetch resolves it to /secret.txt: not a site path
    expect(dotted.status).toBe(404);
    expect(await dotted.text()).not.toContain('outside');
    expect((await get('/legacy/..%2fsecret.txt')).status).toBe(400);
    expect((await get('/legacy/leak.txt')).status).toBe(404); // a symbolic link out of the site
  });

  it('leaves the API paths to the API', async () => {
    const api = await get('/api/no-such-endpoint');
    expect(api.status).toBe(404);
    expect(await api.json()).toMatchObject({ error: 'NotFound' });
  });

  it('says how to build the dashboard when its build is missing', async () => {
    const bare = await startTestServer({ tenants: [], config: { web: { dashboard: true, sites: [] } } });
    try {
      // The dashboard's own directory may or may not be built here: only check the mount answers HTML.
      const page = await fetch(`${bare.url}/t/example/status`);
      expect([200, 503]).toContain(page.status);
      expect(page.headers.get('content-type')).toContain('text/html');
      if (page.status === 503) {
        expect(await page.text()).toContain('npm run web:build');
      }
    } finally {
      await bare.stop();
    }
  });

  it('renders GraphiQL with its assets served by this service, not a CDN', async () => {
    const page = await get('/graphql', { accept: 'text/html' });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).not.toMatch(/https?:\/\//);
    const sources = [...html.matchAll(/(?:src|href)="(\/graphiql\/[^"]+)"/g)].map((m) => m[1]);
    expect(sources).toEqual(expect.arrayContaining(['/graphiql/graphiql.js', '/graphiql/graphiql.css']));
    for (const asset of [
      ...sources,
      '/graphiql/editor.worker.js',
      '/graphiql/json.worker.js',
      '/graphiql/graphql.worker.js',
    ]) {
      const response = await get(asset);
      expect(response.status).toBe(200);
      expect((await response.text()).length).toBeGreaterThan(100);
    }
    expect((await get('/graphiql/other.js')).status).toBe(404);
  });
});

describe('web.sites configuration', () => {
  const parse = (yaml: string) => parseServiceConfig(yaml, '/etc/sluice/sluice.yaml');

  it('refuses a site without index.html, naming the line', () => {
    expect(() => parse('web:\n  sites:\n    - path: /legacy\n      dir: /nonexistent-dir\n')).toThrow(
      new ServiceConfigError(['/etc/sluice/sluice.yaml:4: web.sites.0.dir: /nonexistent-dir has no index.html']),
    );
  });

  it('refuses reserved, malformed and repeated paths', () => {
    const problems = (yaml: string): string[] => {
      try {
        parse(yaml);
        return [];
      } catch (err) {
        return (err as ServiceConfigError).problems;
      }
    };
    expect(problems('web:\n  sites:\n    - {path: /api/x, dir: /tmp}\n')[0]).toContain(
      "must not be one of the service's own paths",
    );
    expect(problems('web:\n  sites:\n    - {path: /../x, dir: /tmp}\n')[0]).toContain('must be a URL path');
    expect(problems('web:\n  sites:\n    - {path: /a, dir: /tmp}\n    - {path: /a/, dir: /tmp}\n')[0]).toContain(
      'two sites have the same path',
    );
  });
});
