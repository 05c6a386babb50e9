/**
 * The events a change read over REST implies since a time (docs/gerrit.md#events-missed-while-no-stream-listened):
 * patch sets uploaded, review messages with the votes their first line records (`oldValue` where a
 * vote changed), a submit or an abandon; nothing at or before the time.
 */
import { gerritSeconds, missedEvents } from '../../../src/drivers/gerrit/catch-up';
import type { ChangeJson } from '../../../src/drivers/gerrit/client';

const core = { _account_id: 7, username: 'core', email: 'core@example.com', name: 'Core' };
const dev = { _account_id: 8, username: 'dev', email: 'dev@example.com', name: 'Dev' };

function change(extra: Partial<ChangeJson> = {}): ChangeJson {
  return {
    project: 'org/app',
    branch: 'master',
    change_id: 'I0123',
    subject: 'S',
    status: 'NEW',
    _number: 5,
    owner: dev,
    revisions: {
      aaa: { _number: 1, ref: 'refs/changes/05/5/1', created: '2026-01-01 10:00:00.000000000', uploader: dev },
      bbb: { _number: 2, ref: 'refs/changes/05/5/2', created: '2026-01-01 10:05:00.000000000', uploader: dev },
    },
    labels: {
      'Code-Review': { all: [{ ...core, value: 2, date: '2026-01-01 10:06:00.000000000' }] },
      Workflow: {
        all: [
          { ...core, value: 1, date: '2026-01-01 10:06:00.000000000' },
          { ...dev, value: 0 },
        ],
      },
    },
    messages: [
      { author: dev, date: '2026-01-01 10:01:00.000000000', message: 'Patch Set 1: old', _revision_number: 1 },
      {
        author: core,
        date: '2026-01-01 10:06:00.000000000',
        message: 'Patch Set 2: Code-Review+2 Workflow+1\n\nLooks good',
        _revision_number: 2,
      },
    ],
    ...extra,
  };
}

describe('Gerrit catch-up events', () => {
  const since = gerritSeconds('2026-01-01 10:02:00.000000000') as number;

  it('reads Gerrit times as seconds', () => {
    expect(gerritSeconds('2026-01-01 10:02:00.123000000')).toBe(Date.parse('2026-01-01T10:02:00Z') / 1000);
    expect(gerritSeconds('yesterday')).toBeNull();
    expect(gerritSeconds(undefined)).toBeNull();
  });

  it('gives the patch sets uploaded and the messages posted after the time, oldest first, with the votes', () => {
    const events = missedEvents(change(), since);
    expect(events.map((e) => e.type)).toEqual(['patchset-created', 'comment-added']);
    expect(events[0]).toMatchObject({
      uploader: { username: 'dev' },
      patchSet: { number: 2, revision: 'bbb', ref: 'refs/changes/05/5/2' },
      change: { project: 'org/app', number: 5, branch: 'master' },
      eventCreatedOn: gerritSeconds('2026-01-01 10:05:00'),
    });
    expect(events[1]).toMatchObject({
      author: { username: 'core' },
      comment: 'Patch Set 2: Code-Review+2 Workflow+1\n\nLooks good',
      patchSet: { number: 2 },
      approvals: [
        { type: 'Code-Review', value: '2', oldValue: '0' },
        { type: 'Workflow', value: '1', oldValue: '0' },
      ],
    });
  });

  it('gives change-merged for a submit and change-abandoned for an abandon after the time', () => {
    const merged = missedEvents(change({ status: 'MERGED', submitted: '2026-01-01 10:07:00.000000000' }), since);
    expect(merged.at(-1)).toMatchObject({ type: 'change-merged', patchSet: { number: 2 } });
    const abandoned = missedEvents(change({ status: 'ABANDONED', updated: '2026-01-01 10:08:00.000000000' }), since);
    expect(abandoned.at(-1)).toMatchObject({ type: 'change-abandoned' });
    const before = missedEvents(change({ status: 'ABANDONED', updated: '2026-01-01 10:01:00.000000000' }), since);
    expect(before.map((e) => e.type)).toEqual(['patchset-created', 'comment-added']);
    expect(missedEvents(change(), gerritSeconds('2026-01-01 10:06:00') as number)).toEqual([]);
  });
});
