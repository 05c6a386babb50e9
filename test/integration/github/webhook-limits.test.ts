/**
 * docs/github.md#webhooks, the limits on webhook bodies: a delivery without a signature is refused
 * before its body is read, an oversized one as soon as it is known to be, at most 8 deliveries
 * are read at once and their bodies hold at most 64 MiB (503 `ServiceUnavailable` past that), and a
 * validly signed payload nested too deep gets a 400 in the documented format, not a 500.
 */
import { createHmac } from 'node:crypto';
import net from 'node:net';
import { githubConnection } from '../../../src/drivers/github/connection-schema';
import { backends } from '../../helpers/database';
import { startTestServer, type TestServer } from '../../helpers/server';

const SECRET = 'webhook-secret';
const HOOK = '/api/connection/gh/payload';
const sign = (body: string | Buffer) => `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`;

/** An answer read off a raw socket: status line and JSON body, once the server has answered. */
interface RawAnswer {
  status: number;
  json: Record<string, unknown>;
  headers: string;
}

/**
 * A POST whose body is sent only in part (`sent` bytes of `declared`, or chunked when `declared`
 * is null), so the answer shows whether the server answered before reading the rest.
 */
function partialPost(url: string, headers: Record<string, string>, declared: number | null, sent: Buffer) {
  const { port, hostname } = new URL(url);
  const socket = net.connect(Number(port), hostname);
  let text = '';
  socket.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
  });
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('error', () => undefined); // the server may close while we write
  const head = Object.entries({
    Host: hostname,
    'Content-Type': 'application/json',
    ...(declared === null ? { 'Transfer-Encoding': 'chunked' } : { 'Content-Length': String(declared) }),
    ...headers,
  })
    .map(([key, value]) => `${key}: ${value}\r\n`)
    .join('');
  socket.write(`POST ${HOOK} HTTP/1.1\r\n${head}\r\n`);
  const write = (data: Buffer): boolean =>
    declared === null
      ? socket.write(`${data.length.toString(16)}\r\n${data.toString('latin1')}\r\n`, 'latin1')
      : socket.write(data);
  if (sent.length > 0) {
    write(sent);
  }
  const answered = async (timeoutMs = 10_000): Promise<RawAnswer> => {
    const started = Date.now();
    while (!/\r\n\r\n[\s\S]*\}/.test(text)) {
      if (Date.now() - started > timeoutMs) {
        throw new Error(`no answer within ${timeoutMs} ms; received ${JSON.stringify(text.slice(0, 200))}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const [headerText, body] = text.split('\r\n\r\n');
    const jsonText = body.includes('{') ? body.slice(body.indexOf('{'), body.lastIndexOf('}') + 1) : '{}';
    return { status: Number(headerText.split(' ')[1]), json: JSON.parse(jsonText) as never, headers: headerText };
  };
  return { socket, answered, closed, write };
}

const WELL_FORMED_BUT_WRONG = { 'X-Hub-Signature-256': `sha256=${'0'.repeat(64)}`, 'X-GitHub-Event': 'push' };
const withDelivery = (n: number) => ({ ...WELL_FORMED_BUT_WRONG, 'X-GitHub-Delivery': `held-${n}` });

function pushPayload(extra: unknown = undefined): Record<string, unknown> {
  return {
    ref: 'refs/heads/main',
    before: 'a'.repeat(40),
    after: 'b'.repeat(40),
    repository: { full_name: 'org/app' },
    sender: { login: 'dev' },
    ...(extra === undefined ? {} : { extra }),
  };
}

/** `{"a":{"a":...1...}}` nested `depth` levels. */
function nested(depth: number): string {
  return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

describe.each(backends())('webhook body limits (%s)', (backend) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({
      backend,
      config: {
        connections: { gh: githubConnection.parse({ driver: 'github', apiToken: 'unused', webhookToken: SECRET }) },
      },
    });
  });

  afterAll(async () => {
    await server.stop();
  });

  const deliver = (body: string, delivery: string, signature = sign(body)) =>
    fetch(`${server.url}${HOOK}`, {
      method: 'POST',
      body,
      headers: {
        'content-type': 'application/json',
        'x-hub-signature-256': signature,
        'x-github-event': 'push',
        'x-github-delivery': delivery,
      },
    });

  it('refuses an unsigned body before reading it, and an oversized one as soon as it is known', async () => {
    // 20 MB announced, 1 KB sent: the answer comes without the rest of the body.
    const unsigned = partialPost(
      server.url,
      { 'X-GitHub-Event': 'push', 'X-GitHub-Delivery': 'u-1' },
      20_000_000,
      Buffer.alloc(1024, 32),
    );
    const refused = await unsigned.answered();
    expect([refused.status, refused.json]).toEqual([
      401,
      { error: 'InvalidSignature', description: expect.any(String) },
    ]);
    await unsigned.closed; // the connection is closed after the answer: the rest is never read
    const declared = partialPost(server.url, withDelivery(1), 30 * 1024 * 1024, Buffer.alloc(1024, 32));
    expect((await declared.answered()).json).toEqual({
      error: 'PayloadTooLarge',
      description: 'webhook payloads are limited to 25 MB',
    });
    await declared.closed;
    // Chunked, with a well-formed signature: refused once 25 MB have come, not at the end.
    const chunked = partialPost(server.url, withDelivery(2), null, Buffer.alloc(0));
    const block = Buffer.alloc(1024 * 1024, 32);
    for (let i = 0; i < 26 && !chunked.socket.destroyed; i += 1) {
      if (!chunked.write(block)) {
        await new Promise((resolve) => chunked.socket.once('drain', resolve));
      }
    }
    expect((await chunked.answered()).status).toBe(413);
    chunked.socket.destroy();
    expect(await server.database.knex('connection_events').whereIn('delivery', ['u-1', 'held-1', 'held-2'])).toEqual(
      [],
    );
  }, 120_000);

  it('reads at most 8 deliveries at once and answers the others 503; health stays quick; slots come back', async () => {
    const held = Array.from({ length: 8 }, (_, n) =>
      partialPost(server.url, withDelivery(10 + n), 1_000_000, Buffer.from('{"ref":')),
    );
    // The server is reading all eight (it answered none of them).
    await new Promise((resolve) => setTimeout(resolve, 300));
    const ninth = await deliver(JSON.stringify(pushPayload()), 'ninth');
    expect([ninth.status, ninth.headers.get('retry-after'), await ninth.json()]).toEqual([
      503,
      '1',
      { error: 'ServiceUnavailable', description: '8 webhook deliveries are being read; try again later' },
    ]);
    const started = Date.now();
    const health = await fetch(`${server.url}/health/ready`);
    expect(health.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(2000);
    // The held posts end (their clients go away): their slots come back.
    for (const post of held) {
      post.socket.destroy();
      await post.closed;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
    const body = JSON.stringify(pushPayload());
    const accepted = await deliver(body, 'after-held');
    expect([accepted.status, await accepted.json()]).toEqual([200, { status: 'stored', delivery: 'after-held' }]);
  }, 60_000);

  it('holds at most 64 MiB of bodies being read: announced lengths are reserved', async () => {
    const big = 24 * 1024 * 1024;
    const first = partialPost(server.url, withDelivery(30), big, Buffer.from('{'));
    const second = partialPost(server.url, withDelivery(31), big, Buffer.from('{'));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const third = partialPost(server.url, withDelivery(32), big, Buffer.from('{'));
    expect((await third.answered()).json).toEqual({
      error: 'ServiceUnavailable',
      description: 'the webhook deliveries being read hold too much memory; try again later',
    });
    for (const post of [first, second, third]) {
      post.socket.destroy();
      await post.closed;
    }
  }, 60_000);

  it('answers a validly signed payload nested too deep with 400, and stores one nested within the limit', async () => {
    const deep = JSON.stringify(pushPayload()).replace(/\}$/, `,"extra":${nested(20_000)}}`);
    const refused = await deliver(deep, 'deep');
    expect([refused.status, await refused.json()]).toEqual([
      400,
      { error: 'BadRequest', description: 'the payload nests deeper than 100 levels' },
    ]);
    const within = JSON.stringify(pushPayload()).replace(/\}$/, `,"extra":${nested(98)}}`);
    const stored = await deliver(within, 'within');
    expect([stored.status, await stored.json()]).toEqual([200, { status: 'stored', delivery: 'within' }]);
    expect(await server.database.knex('connection_events').where({ delivery: 'deep' })).toEqual([]);
  }, 60_000);
});
