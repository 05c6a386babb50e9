/**
 * Branch updates caught up while the stream reconnects (docs/gerrit.md#events-missed-while-no-stream-listened),
 * with the fake Gerrit, its SSH stream and a real store: a push the branch listing saw before the
 * stream's event was stored is stored once (the stream's event, arriving after the caught-up one,
 * is not stored again); a push the stream stored after the listing was made is not reversed by
 * the stale listing; a later push over the stream of the same ref is stored.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GerritClient } from '../../../src/drivers/gerrit/client';
import { gerritConnection } from '../../../src/drivers/gerrit/connection-schema';
import { catchUpRefs } from '../../../src/drivers/gerrit/ref-catch-up';
import { GerritEventStream } from '../../../src/drivers/gerrit/stream';
import { ConnectionEventRepository } from '../../../src/store/repositories/connection-events';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';
import { branchHead } from '../../helpers/fake-gerrit/repos';
import type { FakeGerrit } from '../../helpers/fake-gerrit/server';
import { until } from '../../helpers/github-tenant';
import { eventually, startFakeGerrit } from '../../helpers/gerrit-tenant';

jest.setTimeout(120_000);

describe('Gerrit branch catch-up beside the stream', () => {
  let root: string;
  let gerrit: FakeGerrit;
  let database: TestDatabase;
  let events: ConnectionEventRepository;
  let client: GerritClient;
  let stream: GerritEventStream;
  const logged: string[] = [];
  const log = {
    info: (_: unknown, message: string) => logged.push(message),
    warn: () => undefined,
    error: () => undefined,
  };

  beforeAll(async () => {
    root = mkdtempSync(path.join(os.tmpdir(), 'sluice-gerrit-refs-'));
    const started = await startFakeGerrit(root, { 'org/app': { 'README.md': 'app\n' } });
    gerrit = started.gerrit;
    const settings = gerritConnection.parse(started.connection);
    database = await createTestDatabase();
    events = new ConnectionEventRepository(database.knex);
    client = new GerritClient(settings);
    stream = new GerritEventStream({
      connection: 'gerrit',
      settings,
      knownHosts: path.join(root, 'known_hosts'),
      events,
      now: () => new Date(),
      onStored: () => undefined,
      onOpen: () => undefined,
      log,
    });
    stream.start();
    await gerrit.ssh.connected();
  });

  afterAll(async () => {
    await stream?.stop();
    await gerrit?.stop();
    await database?.destroy();
    rmSync(root, { recursive: true, force: true });
  });

  const updates = async () =>
    (await database.knex('connection_events').where({ event_type: 'ref-updated' }).orderBy('id').select('payload')).map(
      (row: { payload: unknown }) =>
        (typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload) as {
          refUpdate: { oldRev: string; newRev: string };
          sluiceCaughtUp?: boolean;
        },
    );
  const catchUp = (afterListing?: () => Promise<void>) =>
    catchUpRefs({
      connection: 'gerrit',
      client: {
        branches: async (project: string) => {
          const listed = await client.branches(project);
          await afterListing?.();
          return listed;
        },
      } as GerritClient,
      events,
      projects: ['org/app'],
      now: () => new Date(),
      log,
    });

  it('stores a push seen by the listing and then by the stream once', async () => {
    expect(await catchUp()).toBe(0); // the first heads
    const oldRev = await branchHead(gerrit.root, 'org/app', 'master');
    // Pushed while the stream reconnects: the stream's line comes after the listing.
    await stream.stop();
    await until('the stream closed', () => !gerrit.ssh.listening);
    const newRev = await gerrit.push('org/app', 'master', { 'a.txt': 'a\n' });
    const line = gerrit.events.at(-1) as string;
    expect(await catchUp()).toBe(1);
    stream.start();
    await gerrit.ssh.connected();
    gerrit.ssh.send(line);
    await eventually('the line handled', async () => logged.includes('Gerrit branch update stored already'));
    expect((await updates()).map((u) => [u.refUpdate.oldRev, u.refUpdate.newRev, u.sluiceCaughtUp])).toEqual([
      [oldRev, newRev, true],
    ]);
  });

  it('leaves a push the stream stored after the listing to the stream, and stores the next push', async () => {
    const before = await branchHead(gerrit.root, 'org/app', 'master');
    let pushed = '';
    // The listing is made, then a push comes over the stream and is stored, then the catch-up compares.
    const stored = await catchUp(async () => {
      const count = (await updates()).length;
      pushed = await gerrit.push('org/app', 'master', { 'b.txt': 'b\n' });
      await eventually('the push stored', async () => (await updates()).length > count);
    });
    expect(stored).toBe(0);
    const again = await gerrit.push('org/app', 'master', { 'c.txt': 'c\n' });
    await eventually('the next push stored', async () => (await updates()).length === 3);
    expect((await updates()).slice(1).map((u) => [u.refUpdate.oldRev, u.refUpdate.newRev, u.sluiceCaughtUp])).toEqual([
      [before, pushed, undefined],
      [pushed, again, undefined],
    ]);
    // The heads stored are the stream's, so the next catch-up finds nothing missed.
    expect(await catchUp()).toBe(0);
  });
});
