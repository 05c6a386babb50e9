import http from 'node:http';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Koa from 'koa';
import { logFiles, logsMountPath, publicLogsUrl } from '../../src/server/log-files';

/** A raw GET that sends the path exactly as given (fetch would normalise `..`). */
function rawGet(
  port: number,
  rawPath: string,
  method = 'GET',
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: rawPath, method }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** A raw GET asking for JSON. */
function jsonGet(port: number, rawPath: string): ReturnType<typeof rawGet> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, path: rawPath, headers: { accept: 'application/json' } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('log files', () => {
  let root: string;
  let server: http.Server;
  let port: number;

  beforeAll(async () => {
    root = mkdtempSync(path.join(os.tmpdir(), 'sluice-logfiles-'));
    const logs = path.join(root, 'logs');
    mkdirSync(path.join(logs, 'example/ab/ab12/docs'), { recursive: true });
    writeFileSync(path.join(logs, 'example/ab/ab12/job-output.txt'), 'line 1\nline 2\n');
    writeFileSync(path.join(logs, 'example/ab/ab12/docs/index.html'), '<h1>docs</h1>');
    writeFileSync(path.join(logs, 'example/ab/ab12/result.json'), '{"a":1}');
    writeFileSync(path.join(logs, 'example/ab/ab12/file with space.txt'), 'spaced');
    writeFileSync(path.join(root, 'secret.txt'), 'top secret');
    symlinkSync(path.join(root, 'secret.txt'), path.join(logs, 'example/ab/ab12/escape.txt'));
    symlinkSync(path.join(logs, 'example/ab/ab12/result.json'), path.join(logs, 'example/ab/ab12/inside.json'));
    // A folder link leading out of the log directory, and one leading inside it.
    symlinkSync(root, path.join(logs, 'example/ab/ab12/outside'));
    symlinkSync(path.join(logs, 'example/ab/ab12/docs'), path.join(logs, 'example/ab/ab12/docs-link'));
    writeFileSync(path.join(logs, 'example/ab/ab12/docs/<b>bold&amp.txt'), 'markup in a name');
    mkdirSync(path.join(logs, 'example/cd/cd34'), { recursive: true });
    writeFileSync(path.join(logs, 'example/cd/cd34/job-output.json.gz'), gzipSync('[{"phase": "run"}]'));
    writeFileSync(path.join(logs, 'example/cd/cd34/site.tar.gz'), gzipSync('not really a tar'));
    const app = new Koa();
    app.use(logFiles({ dir: logs, mountPath: '/logs/' }));
    app.use((ctx) => {
      ctx.body = { fallthrough: ctx.path };
    });
    server = http.createServer(app.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(root, { recursive: true, force: true });
  });

  it('serves a log file with its content type and safety headers', async () => {
    const res = await rawGet(port, '/logs/example/ab/ab12/job-output.txt');
    expect(res.status).toBe(200);
    expect(res.body).toBe('line 1\nline 2\n');
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.headers['content-length']).toBe('14');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toBe('sandbox');
    expect((await rawGet(port, '/logs/example/ab/ab12/docs/index.html')).headers['content-type']).toBe(
      'text/html; charset=utf-8',
    );
    expect((await rawGet(port, '/logs/example/ab/ab12/result.json')).headers['content-type']).toBe(
      'application/json; charset=utf-8',
    );
    expect((await rawGet(port, '/logs/example/ab/ab12/file%20with%20space.txt')).body).toBe('spaced');
  });

  it('answers HEAD with the length and no body', async () => {
    const res = await rawGet(port, '/logs/example/ab/ab12/job-output.txt', 'HEAD');
    expect(res.status).toBe(200);
    expect(res.headers['content-length']).toBe('14');
    expect(res.body).toBe('');
  });

  it('returns 404 JSON for missing files and folders, and for folders above a build', async () => {
    const missing = await rawGet(port, '/logs/example/ab/ab12/nope.txt');
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.body)).toEqual({ error: 'NotFound', description: 'Log file not found' });
    for (const folder of [
      '/logs/',
      '/logs',
      '/logs/example/',
      '/logs/example/ab/',
      '/logs/example/ab',
      '/logs/example/ab/./',
    ]) {
      const res = await rawGet(port, folder);
      expect({ folder, status: res.status }).toEqual({ folder, status: 404 });
      expect(res.body).not.toContain('ab12');
    }
    expect((await rawGet(port, '/logs/example/ab/ab12/nope/')).status).toBe(404);
    // The structured output clients try first: the file or a 404, never an error.
    const gz = await rawGet(port, '/logs/example/ab/ab12/job-output.json.gz');
    expect(gz.status).toBe(404);
    expect((await rawGet(port, '/logs/example/cd/cd34/nope.json.gz')).status).toBe(404);
  });

  it('serves a compressed text log with its inner type and Content-Encoding to clients taking gzip', async () => {
    // fetch sends Accept-Encoding: gzip and decompresses, as browsers and the dashboard do.
    const res = await fetch(`http://127.0.0.1:${port}/logs/example/cd/cd34/job-output.json.gz`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(await res.json()).toEqual([{ phase: 'run' }]);
    // Without gzip in Accept-Encoding: the compressed bytes as they are.
    const raw = await rawGet(port, '/logs/example/cd/cd34/job-output.json.gz');
    expect(raw.headers['content-type']).toBe('application/gzip');
    expect(raw.headers['content-encoding']).toBeUndefined();
    expect(raw.headers.vary).toBe('Accept-Encoding');
    // Archives stay archives.
    const archive = await fetch(`http://127.0.0.1:${port}/logs/example/cd/cd34/site.tar.gz`);
    expect(archive.headers.get('content-type')).toBe('application/gzip');
    expect(archive.headers.get('content-encoding')).toBeNull();
  });

  it('answers `<file>.gz` of a text log that exists only uncompressed with the file, compressed as it is sent', async () => {
    // The reference's dashboard asks for job-output.json.gz first (docs/logs.md#reference-behaviour).
    const res = await fetch(`http://127.0.0.1:${port}/logs/example/ab/ab12/result.json.gz`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(await res.json()).toEqual({ a: 1 });
    // A client that takes no gzip gets the compressed bytes as a gzip file.
    const raw = await new Promise<{ type?: string; body: Buffer }>((resolve, reject) => {
      http
        .get({ host: '127.0.0.1', port, path: '/logs/example/ab/ab12/job-output.txt.gz' }, (answer) => {
          const chunks: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => chunks.push(chunk));
          answer.on('end', () => resolve({ type: answer.headers['content-type'], body: Buffer.concat(chunks) }));
        })
        .on('error', reject);
    });
    expect(raw.type).toBe('application/gzip');
    expect(gunzipSync(raw.body).toString()).toBe('line 1\nline 2\n');
    const head = await rawGet(port, '/logs/example/ab/ab12/result.json.gz', 'HEAD');
    expect(head.status).toBe(200);
    // Only text logs: no archive is made up, and a file with neither form is still missing.
    expect((await rawGet(port, '/logs/example/ab/ab12/docs.tar.gz')).status).toBe(404);
    expect((await rawGet(port, '/logs/example/ab/ab12/nothing.txt.gz')).status).toBe(404);
  });

  it.each([
    '/logs/../secret.txt',
    '/logs/example/../../secret.txt',
    '/logs/%2e%2e/secret.txt',
    '/logs/%2E%2E/%2e%2e/secret.txt',
    '/logs/example%2F..%2F..%2Fsecret.txt',
    '/logs/..%5csecret.txt',
    '/logs/%00',
  ])('refuses the traversal %s', async (rawPath) => {
    const res = await rawGet(port, rawPath);
    expect([400, 404]).toContain(res.status);
    expect(res.body).not.toContain('top secret');
  });

  it('does not follow a symbolic link out of the log directory, but follows one inside', async () => {
    const escape = await rawGet(port, '/logs/example/ab/ab12/escape.txt');
    expect(escape.status).toBe(404);
    expect(escape.body).not.toContain('top secret');
    expect((await rawGet(port, '/logs/example/ab/ab12/inside.json')).body).toBe('{"a":1}');
  });

  it('lists a build folder as a manifest tree for JSON clients', async () => {
    const res = await jsonGet(port, '/logs/example/ab/ab12/');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers.vary).toBe('Accept');
    const document = JSON.parse(res.body) as { tree: Array<Record<string, unknown>>; index_links: boolean };
    expect(document.index_links).toBe(false);
    expect(document.tree.map((entry) => [entry.name, entry.mimetype])).toEqual([
      // Folders first (the folder link leading inside is not followed either), then files, by name.
      ['docs', 'application/directory'],
      ['file with space.txt', 'text/plain'],
      ['inside.json', 'application/json'],
      ['job-output.txt', 'text/plain'],
      ['result.json', 'application/json'],
    ]);
    expect(document.tree[3]).toEqual({
      name: 'job-output.txt',
      mimetype: 'text/plain',
      encoding: null,
      last_modified: expect.any(Number) as number,
      size: 14,
    });
    expect(document.tree[0].children).toEqual([
      expect.objectContaining({ name: '<b>bold&amp.txt', size: 16 }),
      expect.objectContaining({ name: 'index.html', mimetype: 'text/html' }),
    ]);
    expect(res.body).not.toContain('top secret');
    expect(res.body).not.toContain('escape.txt');
    expect(res.body).not.toContain('secret.txt');
    const sub = JSON.parse((await jsonGet(port, '/logs/example/ab/ab12/docs/')).body) as { tree: unknown[] };
    expect(sub.tree).toHaveLength(2);
  });

  it('lists a build folder as an HTML index page for browsers, names escaped', async () => {
    const res = await rawGet(port, '/logs/example/ab/ab12/docs/');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toBe('sandbox');
    expect(res.body).toContain('<title>Index of /logs/example/ab/ab12/docs/</title>');
    expect(res.body).toContain('<a href="../">../</a>');
    expect(res.body).toContain('<a href="%3Cb%3Ebold%26amp.txt">&lt;b&gt;bold&amp;amp.txt</a>');
    expect(res.body).not.toContain('<b>bold');
    const top = await rawGet(port, '/logs/example/ab/ab12/');
    expect(top.body).toContain('<a href="docs/">docs/</a>');
    expect(top.body).toContain('<a href="file%20with%20space.txt">file with space.txt</a>');
    // The build folder is the top: no link to the level above.
    expect(top.body).not.toContain('href="../"');
    const head = await rawGet(port, '/logs/example/ab/ab12/', 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
  });

  it('redirects a folder without its trailing slash', async () => {
    const res = await rawGet(port, '/logs/example/ab/ab12/docs');
    expect(res.status).toBe(301);
    expect(res.headers.location).toBe('/logs/example/ab/ab12/docs/');
  });

  it.each([
    '/logs/example/ab/ab12/outside/',
    '/logs/example/ab/ab12/outside',
    '/logs/example/ab/ab12/docs-link/',
    '/logs/example/ab/ab12/%2e%2e/%2e%2e/%2e%2e/',
    '/logs/example/ab/ab12/docs/../../../../',
    '/logs/example/ab/ab12/..%2f..%2f/',
  ])('does not list the folder %s', async (rawPath) => {
    for (const res of [await rawGet(port, rawPath), await jsonGet(port, rawPath)]) {
      expect([400, 404]).toContain(res.status);
      expect(res.body).not.toContain('secret.txt');
      expect(res.body).not.toContain('job-output');
    }
  });

  it('refuses writes and leaves other paths alone', async () => {
    const put = await rawGet(port, '/logs/example/ab/ab12/job-output.txt', 'PUT');
    expect(put.status).toBe(405);
    expect(put.headers.allow).toBe('GET, HEAD');
    expect(JSON.parse((await rawGet(port, '/api/tenants')).body)).toEqual({ fallthrough: '/api/tenants' });
    expect(JSON.parse((await rawGet(port, '/logsx/a')).body)).toEqual({ fallthrough: '/logsx/a' });
  });
});

describe('logsMountPath', () => {
  const base = { api: { restShape: 'current' as const }, listen: { host: '0.0.0.0', port: 9000 } };

  it("serves a relative URL, this service's public origin and a loopback URL on the listen port", () => {
    expect(logsMountPath({ ...base, logs: { url: '/logs' } })).toBe('/logs/');
    expect(logsMountPath({ ...base, logs: { url: 'http://localhost:9000/logs/' } })).toBe('/logs/');
    expect(
      logsMountPath({
        api: { restShape: 'current', publicUrl: 'https://ci.example.com' },
        listen: base.listen,
        logs: { url: 'https://ci.example.com/build-logs' },
      }),
    ).toBe('/build-logs/');
  });

  it('does not serve logs published elsewhere', () => {
    expect(logsMountPath({ ...base, logs: { url: 'https://logs.example.com/' } })).toBeNull();
    expect(logsMountPath({ ...base, logs: { url: 'http://localhost:8080/logs/' } })).toBeNull();
  });

  it('serves /logs/ when logs.url is not set', () => {
    expect(logsMountPath({ ...base, logs: {} })).toBe('/logs/');
  });
});

describe('publicLogsUrl', () => {
  it('is logs.url when set, whatever the service listens on', () => {
    const config = { api: { restShape: 'current' as const }, logs: { url: 'https://logs.example.com/sluice/' } };
    expect(publicLogsUrl(config, 'http://127.0.0.1:4321')).toBe('https://logs.example.com/sluice/');
  });

  it('otherwise follows api.publicUrl, else the address the service listens on', () => {
    const unset = { api: { restShape: 'current' as const }, logs: {} };
    expect(publicLogsUrl(unset, 'http://127.0.0.1:4321')).toBe('http://127.0.0.1:4321/logs/');
    expect(publicLogsUrl(unset, undefined)).toBeUndefined();
    expect(
      publicLogsUrl({ api: { restShape: 'current', publicUrl: 'https://ci.example.com/' }, logs: {} }, 'http://x:1'),
    ).toBe('https://ci.example.com/logs/');
  });
});
