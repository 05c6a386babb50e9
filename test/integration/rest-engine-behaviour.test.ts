/**
 * REST over the live engine, the docs/rest.md#reference-cases cases: status (both shapes), status of a change,
 * tenant state, enqueue, dequeue, promote and autohold.
 */
import { restEngineServer, type Json } from '../helpers/rest-engine-server';

describe('REST over the engine: reference-case behaviour', () => {
  const fixture = restEngineServer();
  const { T, request, post, json, enqueuedChange, createAutohold } = fixture;

  it('status: headers, current items with refs, earlier per-change items (cases 11–13, earlier case 2)', async () => {
    const res = await request(`${T()}/status`);
    expect(res.headers.get('cache-control')).toBe('public, max-age=1');
    expect(res.headers.get('last-modified')).toMatch(
      /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/,
    );
    const current = await json<{
      pipelines: Array<{ name: string; manager: string; change_queues: Array<{ heads: Json[][] }> }>;
      state: Json;
    }>(res);
    const gate = current.pipelines.find((entry) => entry.name === 'gate');
    expect(gate?.manager).toBe('dependent');
    const items = gate?.change_queues.flatMap((queue) => queue.heads.flat()) ?? [];
    const first = items.find((item) => (item.refs as Array<{ id: string }>)[0]?.id === '1,1');
    expect(first).toMatchObject({
      live: true,
      active: true,
      item_ahead: null,
      refs: [{ id: '1,1', project: 'org/project' }],
    });
    // Key order of the reference's example document (docs/rest.md#status-document); some clients diff raw documents.
    expect(Object.keys(current)).toEqual([
      'zuul_version',
      'trigger_event_queue',
      'state',
      'management_event_queue',
      'connection_event_queues',
      'last_reconfigured',
      'pipelines',
    ]);
    expect(Object.keys(first ?? {})).toEqual([
      'active',
      'live',
      'refs',
      'id',
      'item_ahead',
      'items_behind',
      'failing_reasons',
      'zuul_ref',
      'enqueue_time',
      'jobs',
      'remaining_time',
    ]);
    expect(Object.keys((first?.refs as Json[])[0])).toEqual([
      'url',
      'ref',
      'project',
      'project_canonical',
      'owner',
      'id',
    ]);
    expect(Object.keys((first?.jobs as Json[])[0])).toEqual([
      'name',
      'dependencies',
      'elapsed_time',
      'remaining_time',
      'url',
      'finger_url',
      'report_url',
      'result',
      'voting',
      'uuid',
      'execute_time',
      'start_time',
      'end_time',
      'estimated_time',
      'pipeline',
      'canceled',
      'paused',
      'pre_fail',
      'retry',
      'tries',
      'queued',
      'waiting_status',
    ]);
    expect(
      (first?.jobs as Array<{ name: string; dependencies: string[]; waiting_status: string | null }>).map((entry) => [
        entry.name,
        entry.dependencies,
      ]),
    ).toEqual([
      ['unit', []],
      ['integration', ['unit']],
    ]);

    const earlier = await json<{
      ci_version: string;
      trigger_event_queue: number;
      pipelines: Array<{ change_queues: Array<{ heads: Json[][] }> }>;
    }>(await request(`${T()}/status`, 'earlier'));
    expect(typeof earlier.trigger_event_queue).toBe('number');
    expect(earlier.ci_version).toEqual(expect.any(String));
    const earlierItems = earlier.pipelines.flatMap((entry) =>
      entry.change_queues.flatMap((queue) => queue.heads.flat()),
    );
    const second = earlierItems.find((item) => item.id === '2,1');
    expect(second).toMatchObject({ item_ahead: '1,1', project: 'org/project', ci_ref: expect.stringMatching(/^Z/) });
    expect(earlierItems.find((item) => item.id === '1,1')?.items_behind).toEqual(expect.arrayContaining(['2,1']));
  });

  it('status/change returns the items of the change; unknown change -> [] (case 16)', async () => {
    const items = await json<Array<{ refs: Array<{ id: string; project: string }> }>>(
      await request(`${T()}/status/change/1,1`),
    );
    expect(items).toHaveLength(1);
    expect(items[0]?.refs[0]).toMatchObject({ id: '1,1', project: 'org/project' });
    expect(await json(await request(`${T()}/status/change/99,1`))).toEqual([]);
  });

  it('state: POST coerces flags, keeps omitted ones, truncates the reason; GET and status show it', async () => {
    expect(await json(await post(`${T()}/state`, { trigger_queue_paused: 1, reason: 'x'.repeat(5000) }))).toBeNull();
    const state = await json<Json>(await request(`${T()}/state`));
    expect(state).toEqual({
      trigger_queue_discarding: false,
      trigger_queue_paused: true,
      result_queue_paused: false,
      reason: 'x'.repeat(4096),
    });
    expect(await json(await post(`${T()}/state`, { result_queue_paused: true }))).toBeNull();
    expect(await json(await request(`${T()}/state`))).toEqual({
      trigger_queue_discarding: false,
      trigger_queue_paused: true,
      result_queue_paused: true,
      reason: null,
    });
    expect(await json(await post(`${T()}/state`, { trigger_queue_paused: false, result_queue_paused: '' }))).toBeNull();
    const status = await json<{ state: Json }>(await request(`${T()}/status`));
    expect(status.state).toEqual({
      trigger_queue_discarding: false,
      trigger_queue_paused: false,
      result_queue_paused: false,
      reason: null,
    });
  });

  it('enqueue a change -> true and the item appears; earlier GET form too', async () => {
    fixture.h.changes.add('org/project', 50);
    expect(
      await json(
        await post(`${T()}/project/org/project/enqueue`, { pipeline: 'gate', change: '50,1', trigger: 'gerrit' }),
      ),
    ).toBe(true);
    fixture.h.changes.add('org/project', 51);
    const viaGet = await request(
      `${T()}/project/org/project/enqueue?pipeline=gate&change=51,1`,
      'earlier',
      {},
      fixture.admin,
    );
    expect(await json(viaGet)).toBe(true);
    await fixture.h.settle();
    for (const change of ['50,1', '51,1']) {
      expect(await json<unknown[]>(await request(`${T()}/status/change/${change}`))).toHaveLength(1);
    }
  });

  it('dequeue removes the item; promote of the current order answers true (cases 51, 52)', async () => {
    const change = await enqueuedChange();
    expect(await json(await post(`${T()}/project/org/project/dequeue`, { pipeline: 'gate', change }))).toBe(true);
    await fixture.h.settle();
    expect(await json(await request(`${T()}/status/change/${change}`))).toEqual([]);
    expect(await json(await post(`${T()}/promote`, { pipeline: 'gate', changes: ['1,1', '2,1'] }))).toBe(true);
    await fixture.h.settle();
  });

  it('autohold: create (default, change, ref), list with project suffix filter, get, delete (cases 49, 50)', async () => {
    const before = (await json<unknown[]>(await request(`${T()}/autohold`))).length;
    const plain = await createAutohold({ reason: 'reason text', node_hold_expiration: 600 });
    const record = await json<Json>(await request(`${T()}/autohold/${plain}`));
    expect(record).toMatchObject({
      id: plain,
      tenant: fixture.h.tenant,
      project: 'git.example.com/org/project',
      job: 'unit',
      ref_filter: '.*',
      max_count: 1,
      current_count: 0,
      reason: 'reason text',
      node_expiration: 600,
      expired: null,
      nodes: [],
    });
    expect(plain).toMatch(/^\d{10}$/);
    const byChange = await createAutohold({ change: '1' });
    expect(await json<Json>(await request(`${T()}/autohold/${Number(byChange)}`))).toMatchObject({
      ref_filter: 'refs/changes/01/1/.*',
    });
    const byRef = await createAutohold({ ref: 'refs/tags/foo' });
    expect(await json<Json>(await request(`${T()}/autohold/${byRef}`))).toMatchObject({
      ref_filter: 'refs/tags/foo',
    });

    expect(await json<unknown[]>(await request(`${T()}/autohold`))).toHaveLength(before + 3);
    expect(await json<unknown[]>(await request(`${T()}/autohold?project=org/project`))).toHaveLength(before + 3);
    expect(await json(await request(`${T()}/autohold?project=org/project2`))).toEqual([]);
    expect(await json<unknown[]>(await request(`${T()}/project/org/project/autohold`))).toHaveLength(before + 3);

    for (const id of [plain, byChange, byRef]) {
      const deleted = await request(`${T()}/autohold/${id}`, 'current', { method: 'DELETE' }, fixture.admin);
      expect(deleted.status).toBe(204);
    }
    expect(await json<unknown[]>(await request(`${T()}/autohold`))).toHaveLength(before);
  });
});
