/**
 * Catching up on hashtag edits and deleted votes after a stream outage
 * (docs/gerrit.md#events-missed-while-no-stream-listened), through the real server and the fake
 * Gerrit: while no server ran, a hashtag was added to one change and another change's vote was
 * deleted by an administrator. After the restart each is stored as the event Gerrit sent meanwhile
 * (`hashtags-changed` with `added` and the hashtags after it, `vote-deleted` with the voter, the
 * remover and the votes), each once, and they act: `check` takes both changes again (its
 * triggers: a hashtag `ci` added, a vote deleted by `admin`), and a hashtag added that no trigger
 * names does nothing. The checks pending meanwhile (Gerrit's checks plugin, which sends no stream
 * event) of the checkers `pending-check` triggers name, by uuid or by scheme, are stored as
 * `pending-check` events once and checked; a checker no trigger names is not asked about.
 */
import { BASE_JOB, until } from '../../helpers/github-tenant';
import {
  addPendingChecks,
  checkPipeline,
  checksPassed,
  eventually,
  judgedAll,
  PENDING_CHECK_TRIGGERS,
  startGerritGateTenant,
  storedEvents,
  type GerritTenant,
} from '../../helpers/gerrit-tenant';

jest.setTimeout(300_000);

const PIPELINES = `${checkPipeline(
  '- event: patchset-created',
  '- event: hashtags-changed\n  added: ^ci$',
  '- event: vote-deleted\n  username: ^admin$',
  ...PENDING_CHECK_TRIGGERS,
)}
${BASE_JOB}`;

interface Stored {
  type: string;
  change?: { number?: number; topic?: string };
  patchSet?: { number?: number };
  editor?: { username?: string };
  changer?: { username?: string };
  oldTopic?: string;
  remover?: { username?: string };
  reviewer?: { username?: string };
  added?: string[];
  removed?: string[];
  hashtags?: string[];
  approvals?: Array<{ type: string; value: string; oldValue?: string }>;
}

describe('Gerrit catch-up of hashtag edits and deleted votes', () => {
  let env: GerritTenant;

  beforeAll(async () => {
    env = await startGerritGateTenant({ pipelines: PIPELINES });
  });

  afterAll(async () => {
    await env?.stop();
  });

  it('stores and acts on the hashtags edited and the votes deleted while no stream listened, once', async () => {
    const { gerrit } = env;
    const tagged = await gerrit.upload('org/app', { subject: 'Tagged', files: { 't.txt': 't\n' } });
    const voted = await gerrit.upload('org/app', { subject: 'Voted', files: { 'v.txt': 'v\n' } });
    const other = await gerrit.upload('org/app', { subject: 'Other tag', files: { 'o.txt': 'o\n' } });
    await until('the checks', () => [tagged, voted, other].every((c) => checksPassed(c) === 1));
    gerrit.review(voted.number, 'core', { 'Code-Review': 2, Workflow: 1 });
    gerrit.setHashtags(tagged.number, 'dev', { add: ['wip-topic'] });
    await eventually('every event judged', () => judgedAll(env.server));
    const emitted: Stored[] = [];
    await env.restart(async () => {
      await until('the stream closed', () => !gerrit.ssh.listening);
      const sent = gerrit.events.length;
      gerrit.setHashtags(tagged.number, 'dev', { add: ['ci'], remove: ['wip-topic'] });
      gerrit.setHashtags(other.number, 'dev', { add: ['docs'] });
      gerrit.deleteVote(voted.number, 'core', 'Code-Review', 'admin');
      emitted.push(...gerrit.events.slice(sent).map((line) => JSON.parse(line) as Stored));
    });
    await until('both changes checked again', () => checksPassed(tagged) === 2 && checksPassed(voted) === 2);
    await eventually('every event judged', () => judgedAll(env.server));
    expect(checksPassed(other)).toBe(1);
    const events = await storedEvents<Stored>(env.server);
    // What was caught up is what the stream would have sent (but for the time and the change's details).
    const shape = (e: Stored) => ({
      type: e.type,
      change: e.change?.number,
      patchSet: e.patchSet?.number,
      editor: e.editor?.username,
      remover: e.remover?.username,
      reviewer: e.reviewer?.username,
      added: e.added,
      removed: e.removed,
      hashtags: e.hashtags,
      approvals: e.approvals?.map((a) => ({ type: a.type, value: String(a.value), oldValue: a.oldValue })),
    });
    // Of one change they come in order; across changes, events of one time come in the query's order.
    const byChange = (a: { change?: number }, b: { change?: number }) => (a.change ?? 0) - (b.change ?? 0);
    const caught = events
      .filter((e) => ['hashtags-changed', 'vote-deleted'].includes(e.type))
      .slice(1)
      .map(shape)
      .sort(byChange);
    expect(caught).toEqual(emitted.map(shape).sort(byChange));
    expect(caught).toEqual([
      expect.objectContaining({ change: tagged.number, added: ['ci'], removed: ['wip-topic'], hashtags: ['ci'] }),
      expect.objectContaining({
        type: 'vote-deleted',
        remover: 'admin',
        reviewer: 'core',
        approvals: [
          { type: 'Workflow', value: '1', oldValue: undefined },
          { type: 'Code-Review', value: '0', oldValue: '2' },
        ],
      }),
      expect.objectContaining({ change: other.number, added: ['docs'], hashtags: ['docs'] }),
    ]);
    // A second catch-up (the stream dropped and opened again) stores nothing twice.
    const count = events.filter((e) => e.type !== 'sluice-branch-heads').length;
    // The branches are listed after the changes are read (src/drivers/gerrit/runtime.ts).
    const listings = () => gerrit.requests.filter((r) => r.path.endsWith('/branches/')).length;
    const listed = listings();
    gerrit.ssh.drop();
    await until('the branches listed again', () => listings() > listed);
    await eventually('every event judged', () => judgedAll(env.server));
    const again = await storedEvents<Stored>(env.server);
    expect(again.filter((e) => e.type !== 'sluice-branch-heads')).toHaveLength(count);
  });

  it('stores the checks pending for the watched checkers when a stream opens, once', async () => {
    const { gerrit } = env;
    const first = await gerrit.upload('org/app', { subject: 'By uuid', files: { 'u.txt': 'u\n' } });
    const second = await gerrit.upload('org/app', { subject: 'By scheme', files: { 's.txt': 's\n' } });
    await until('the checks', () => checksPassed(first) === 1 && checksPassed(second) === 1);
    await eventually('every event judged', () => judgedAll(env.server));
    await env.restart(async () => {
      await until('the stream closed', () => !gerrit.ssh.listening);
      addPendingChecks(gerrit, first.number, second.number, [
        { uuid: 'sluice:off', repository: 'org/app', status: 'DISABLED' },
      ]);
    });
    await until('both checked again', () => checksPassed(first) === 2 && checksPassed(second) === 2);
    await eventually('every event judged', () => judgedAll(env.server));
    const pending = () =>
      storedEvents<Stored & { uuid?: string; scheme?: string }>(env.server).then((events) =>
        events.filter((e) => e.type === 'pending-check'),
      );
    expect((await pending()).map((e) => [e.change?.number, e.patchSet?.number, e.uuid, e.scheme])).toEqual([
      [second.number, 1, 'sluice:lint', 'sluice'],
      [first.number, 1, 'zuul:check', 'zuul'],
    ]);
    const asked = gerrit.requests
      .filter((r) => r.path.includes('checks.pending'))
      .map((r) => decodeURIComponent(r.path.split('query=')[1] ?? ''));
    expect([...new Set(asked)].sort()).toEqual([
      'checker:sluice:lint (state:NOT_STARTED)',
      'checker:zuul:check (state:NOT_STARTED)',
    ]);
    // Still pending at the next catch-up: not stored, not checked again.
    const listings = () => gerrit.requests.filter((r) => r.path.endsWith('/branches/')).length;
    const listed = listings();
    gerrit.ssh.drop();
    await until('the branches listed again', () => listings() > listed);
    await until(
      'the checks asked again',
      () => gerrit.requests.filter((r) => r.path.includes('checks.pending')).length > asked.length,
    );
    await eventually('every event judged', () => judgedAll(env.server));
    expect(await pending()).toHaveLength(2);
    expect([checksPassed(first), checksPassed(second)]).toEqual([2, 2]);
  });
  it('stores the topic edits made while no stream listened as Gerrit sent them, once, as trigger events', async () => {
    const { gerrit } = env;
    const upload = (subject: string, file: string) =>
      gerrit.upload('org/app', { subject, files: { [file]: `${file}\n` } });
    const [renamed, cleared, fresh] = [
      await upload('Renamed', 'r.txt'),
      await upload('Cleared', 'c.txt'),
      await upload('Fresh', 'f.txt'),
    ];
    gerrit.setTopic(renamed.number, 'alpha');
    gerrit.setTopic(cleared.number, 'solo');
    await until('the checks', () => [renamed, cleared, fresh].every((c) => checksPassed(c) === 1));
    await eventually('every event judged', () => judgedAll(env.server));
    const emitted: Stored[] = [];
    await env.restart(async () => {
      await until('the stream closed', () => !gerrit.ssh.listening);
      const sent = gerrit.events.length;
      // A topic may hold ` to `: the old one is told from the topic after it.
      gerrit.setTopic(renamed.number, 'release to 2', 'dev');
      gerrit.setTopic(cleared.number, undefined, 'dev');
      gerrit.setTopic(fresh.number, 'fresh');
      emitted.push(...gerrit.events.slice(sent).map((line) => JSON.parse(line) as Stored));
    });
    const topicEdits = async () =>
      (await storedEvents<Stored>(env.server)).filter((e) => e.type === 'topic-changed').slice(2);
    await eventually('the topic edits caught up', async () => (await topicEdits()).length >= 3);
    await eventually('every event judged', () => judgedAll(env.server));
    const shape = (e: Stored) => ({
      change: e.change?.number,
      topic: e.change?.topic,
      changer: e.changer?.username,
      oldTopic: e.oldTopic,
    });
    const byChange = (a: { change?: number }, b: { change?: number }) => (a.change ?? 0) - (b.change ?? 0);
    const caught = (await topicEdits()).map(shape).sort(byChange);
    expect(caught).toEqual(emitted.map(shape).sort(byChange));
    expect(caught).toEqual([
      { change: renamed.number, topic: 'release to 2', changer: 'dev', oldTopic: 'alpha' },
      { change: cleared.number, topic: undefined, changer: 'dev', oldTopic: 'solo' },
      { change: fresh.number, topic: 'fresh', changer: expect.any(String), oldTopic: '' },
    ]);
    // Each made a trigger event (the engine re-reads the dependency cycles of the change).
    const outcomes = await env.server.database
      .knex('connection_events')
      .where({ connection: 'gerrit', event_type: 'topic-changed' })
      .orderBy('id')
      .pluck('outcome');
    expect(outcomes.slice(2)).toEqual(['submitted 1', 'submitted 1', 'submitted 1']);
  });
});
