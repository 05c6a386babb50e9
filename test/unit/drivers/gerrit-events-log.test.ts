/**
 * Reading Gerrit's events-log plugin (docs/gerrit.md#the-events-log-plugin): its answer split into
 * the stream's JSON objects (one a line or spread over lines), its time format, and what a read
 * stores: the events from the newest stored second on, each once (the same event in another key
 * order is known), in the plugin's order; `auto` asks a Gerrit without the plugin once.
 */
import { GerritApiError, type GerritClient } from '../../../src/drivers/gerrit/client';
import { EventsLog, eventsLogObjects, eventsLogTime } from '../../../src/drivers/gerrit/events-log';
import type { ConnectionEventRepository } from '../../../src/store/repositories/connection-events';

const log = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined };

/** A repository keeping rows in memory, by delivery. */
function memoryEvents(payloads: Array<Record<string, unknown>>) {
  const rows: Array<{ delivery: string; payload: Record<string, unknown> }> = payloads.map((payload, i) => ({
    delivery: `old-${i}`,
    payload,
  }));
  const repository = {
    recentPayloads: () => Promise.resolve([...rows].reverse().map((row) => row.payload)),
    record: (row: { delivery: string; payload: Record<string, unknown> }) => {
      if (rows.some((r) => r.delivery === row.delivery)) {
        return Promise.resolve(false);
      }
      rows.push({ delivery: row.delivery, payload: row.payload });
      return Promise.resolve(true);
    },
  } as unknown as ConnectionEventRepository;
  return { rows, repository };
}

function client(answer: () => Promise<string>) {
  const paths: string[] = [];
  const fakeClient = {
    requestText: (_method: string, path: string) => {
      paths.push(path);
      return answer();
    },
  } as unknown as GerritClient;
  return { paths, fakeClient };
}

describe('Gerrit events-log', () => {
  it('splits the answer into objects, one a line or spread over lines', () => {
    const text = `{"type":"a","comment":"} {"}\n{\n  "type": "b",\n  "x": {"y": "\\"}"}\n}\n`;
    expect(eventsLogObjects(text).map((o) => (JSON.parse(o) as { type: string }).type)).toEqual(['a', 'b']);
    expect(eventsLogObjects(`)]}'\n{"type":"c"}`)).toEqual(['{"type":"c"}']);
    expect(eventsLogTime(Date.parse('2026-11-29T14:05:09Z') / 1000)).toBe('2026-11-29 14:05:09');
  });

  it('stores the events from the newest stored second on, each once, in order', async () => {
    const since = 1_800_000_000;
    const stored = { type: 'comment-added', change: { number: 1 }, eventCreatedOn: since };
    const { rows, repository } = memoryEvents([stored]);
    const lines = [
      '{"type":"patchset-created","eventCreatedOn":1799999999}',
      // The stored one, its keys in another order: known.
      `{"eventCreatedOn":${since},"change":{"number":1},"type":"comment-added"}`,
      `{"type":"reviewer-added","eventCreatedOn":${since}}`,
      `{"type":"ref-updated-x","submitter":{"username":"p"},"eventCreatedOn":${since + 5}}`,
    ];
    const { paths, fakeClient } = client(() => Promise.resolve(`${lines.join('\n')}\n`));
    const reader = new EventsLog('review', fakeClient, 'auto', log);
    expect(await reader.catchUp({ events: repository, now: () => new Date() })).toBe(2);
    expect(rows.slice(1).map((row) => row.payload.type)).toEqual(['reviewer-added', 'ref-updated-x']);
    // Asked from a day before (the plugin's zone is its server's).
    expect(decodeURIComponent(paths[0])).toBe(`/plugins/events-log/events/?t1=${eventsLogTime(since - 86_400)}`);
    // Read again: nothing twice.
    expect(await reader.catchUp({ events: repository, now: () => new Date() })).toBe(0);
    expect(rows).toHaveLength(3);
  });

  it('asks a Gerrit without the plugin once (auto), and is not read when off or nothing is stored', async () => {
    const { repository } = memoryEvents([{ type: 'x', eventCreatedOn: 5 }]);
    const missing = client(() => Promise.reject(new GerritApiError(404, 'Not found')));
    const auto = new EventsLog('review', missing.fakeClient, 'auto', log);
    expect(await auto.catchUp({ events: repository, now: () => new Date() })).toBeNull();
    expect(await auto.catchUp({ events: repository, now: () => new Date() })).toBeNull();
    expect(missing.paths).toHaveLength(1);
    // `true`: asked each time (a failure falls back each time).
    const on = new EventsLog('review', missing.fakeClient, true, log);
    expect(await on.catchUp({ events: repository, now: () => new Date() })).toBeNull();
    expect(await on.catchUp({ events: repository, now: () => new Date() })).toBeNull();
    expect(missing.paths).toHaveLength(3);
    const off = new EventsLog('review', missing.fakeClient, false, log);
    expect(await off.catchUp({ events: repository, now: () => new Date() })).toBeNull();
    const empty = new EventsLog('review', missing.fakeClient, true, log);
    expect(await empty.catchUp({ events: memoryEvents([]).repository, now: () => new Date() })).toBeNull();
    expect(missing.paths).toHaveLength(3);
  });
});
