/**
 * Boots the real `sluice serve` process and checks health, graceful shutdown on SIGTERM with an
 * open WebSocket and an in-flight request, and the exit code.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { describeExit, expectCleanExit, processExit, type ProcessExit } from '../helpers/process-exit';

const ROOT = path.join(__dirname, '..', '..');

interface Running {
  child: ChildProcessWithoutNullStreams;
  base: string;
  exited: Promise<ProcessExit>;
  output: () => string;
}

async function startService(env: Record<string, string>, configFile: string): Promise<Running> {
  const child = spawn(process.execPath, [path.join(ROOT, 'bin', 'sluice.js'), 'serve', '--config', configFile], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', SLUICE_LOG_LEVEL: 'warn', ...env },
  });
  let output = '';
  const exited = processExit(child);
  const base = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /GraphQL .*?(http:\/\/[^\s]+)\/graphql/.exec(output);
      if (match) {
        resolve(match[1]);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    void exited.then((exit) => reject(new Error(`sluice exited early (${describeExit(exit)}): ${output}`)));
  });
  return { child, base, exited, output: () => output };
}

jest.setTimeout(120_000);

describe('sluice serve', () => {
  let dir: string;
  // The process runs on the embedded PGlite store (the quickstart's default), whatever DATABASE_URL says,
  // so CI exercises the embedded store end to end; other server tests use the default backend.
  const env = { PORT: '0', DATABASE_URL: '' };

  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'sluice-serve-'));
    writeFileSync(path.join(dir, 'sluice.yaml'), 'listen: {host: 127.0.0.1}\ndataDir: data\nshutdownTimeout: 5\n');
  });

  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves health, GraphQL and REST, then shuts down gracefully on SIGTERM', async () => {
    const service = await startService(env, path.join(dir, 'sluice.yaml'));
    try {
      const ready = await fetch(`${service.base}/health/ready`);
      expect(ready.status).toBe(200);
      // Embedded store, in-process bus: the store is the one link (docs/operations.md#health).
      expect(await ready.json()).toEqual({
        status: 'ready',
        links: { database: { up: true, since: expect.any(String) } },
      });
      expect((await fetch(`${service.base}/health/live`)).status).toBe(200);

      const gql = await fetch(`${service.base}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ __typename }' }),
      });
      expect(await gql.json()).toEqual({ data: { __typename: 'Query' } });
      const info = await fetch(`${service.base}/api/info`);
      expect(info.status).toBe(200);
      expect(
        ((await info.json()) as { info: { capabilities: { job_history: boolean } } }).info.capabilities.job_history,
      ).toBe(true);

      // An open WebSocket with a completed operation on it.
      const closed = new Promise<number>((resolve) => {
        const client = createClient({
          url: `${service.base.replace('http', 'ws')}/graphql`,
          webSocketImpl: WebSocket,
          retryAttempts: 0,
          lazy: false,
          onNonLazyError: () => undefined,
          on: { closed: (event) => resolve((event as { code: number }).code) },
        });
        client.subscribe(
          { query: '{ __typename }' },
          { next: () => undefined, error: () => undefined, complete: () => undefined },
        );
      });
      // An in-flight request: headers sent, body not finished yet.
      const body = JSON.stringify({ query: '{ info { version } }' });
      const url = new URL(`${service.base}/graphql`);
      const inFlight = new Promise<{ status: number; text: string }>((resolve, reject) => {
        const req = http.request(
          {
            host: url.hostname,
            port: url.port,
            path: url.pathname,
            method: 'POST',
            headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
          },
          (res) => {
            let text = '';
            res.on('data', (c: Buffer) => (text += c.toString()));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
          },
        );
        req.on('error', reject);
        req.write(body.slice(0, 5));
        setTimeout(() => {
          service.child.kill('SIGTERM');
          // Finish the request after the signal: it must still be answered.
          setTimeout(() => req.end(body.slice(5)), 300);
        }, 200);
      });

      const answered = await inFlight;
      expect(answered.status).toBe(200);
      expect(JSON.parse(answered.text)).toMatchObject({ data: { info: { version: expect.any(String) } } });
      expect(await closed).toBe(1001);
      await expectCleanExit(service);
      expect(service.output()).toContain('Sluice');
    } finally {
      service.child.kill('SIGKILL');
    }
  });

  it('fails with a readable message on a bad configuration file', async () => {
    writeFileSync(path.join(dir, 'bad.yaml'), 'listen: {prot: 1}\n');
    const child = spawn(
      process.execPath,
      [path.join(ROOT, 'bin', 'sluice.js'), 'serve', '--config', path.join(dir, 'bad.yaml')],
      { cwd: ROOT },
    );
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(1);
    expect(stderr).toContain('bad.yaml:1: unknown key "listen.prot"');
  });
});
