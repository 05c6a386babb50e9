/**
 * The events a change read over REST implies since a time (docs/gerrit.md#events-missed-while-no-stream-listened):
 * patch sets uploaded, review messages with the votes their first line records (`oldValue` where a
 * vote changed), a submit or an abandon, hashtag edits and deleted votes (Gerrit's own messages);
 * nothing at or before the time.
 */
import {
  deletedVote,
  gerritSeconds,
  hashtagEdit,
  missedEvents,
  topicBefore,
} from '../../../src/drivers/gerrit/catch-up';
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

  it('gives hashtags-changed for each hashtag edit, with the hashtags after it', () => {
    expect(hashtagEdit('Hashtags added: a, b\nHashtag removed: c')).toEqual({ added: ['a', 'b'], removed: ['c'] });
    const edited = change({
      hashtags: ['ci', 'x'],
      messages: [
        { author: dev, date: '2026-01-01 10:01:00.000000000', message: 'Hashtag added: x', tag: tag('setHashtag') },
        { author: core, date: '2026-01-01 10:03:00.000000000', message: 'Hashtag added: ci', tag: tag('setHashtag') },
        {
          author: core,
          date: '2026-01-01 10:04:00.000000000',
          message: 'Hashtags added: y, z\nHashtag removed: old',
          tag: tag('setHashtag'),
        },
        {
          author: dev,
          date: '2026-01-01 10:05:30.000000000',
          message: 'Hashtags removed: y, z',
          tag: tag('setHashtag'),
        },
      ],
    });
    const events = missedEvents(edited, since).filter((e) => e.type === 'hashtags-changed');
    expect(events.map((e) => [e.editor, e.added, e.removed, e.hashtags, e.patchSet])).toEqual([
      [{ username: 'core', email: 'core@example.com', name: 'Core' }, ['ci'], undefined, ['ci', 'old', 'x'], undefined],
      [expect.anything(), ['y', 'z'], ['old'], ['ci', 'x', 'y', 'z'], undefined],
      [{ username: 'dev', email: 'dev@example.com', name: 'Dev' }, undefined, ['y', 'z'], ['ci', 'x'], undefined],
    ]);
  });

  it("gives vote-deleted for a deleted vote: the voter's votes, the deleted one 0 with its oldValue", () => {
    const removal = {
      author: dev,
      date: '2026-01-01 10:07:00.000000000',
      message: 'Removed Code-Review+2 by <GERRIT_ACCOUNT_7>\n',
      _revision_number: 2,
      tag: tag('deleteVote'),
    };
    const deleted = change({ messages: [...(change().messages ?? []), removal] });
    const event = missedEvents(deleted, since).at(-1);
    expect(event).toMatchObject({
      type: 'vote-deleted',
      reviewer: { username: 'core' },
      remover: { username: 'dev' },
      patchSet: { number: 2 },
      comment: removal.message,
      approvals: [
        { type: 'Workflow', value: '1' },
        { type: 'Code-Review', value: '0', oldValue: '2' },
      ],
    });
    // Before Gerrit 3.5 the voter is named by name and e-mail.
    const older = { ...removal, message: 'Removed Code-Review+2 by Core <core@example.com>\n' };
    expect(deletedVote(older, [core])).toEqual({ label: 'Code-Review', oldValue: 2, reviewer: core });
    expect(deletedVote({ ...removal, message: 'Removed nothing' }, [])).toBeNull();
  });

  it('gives topic-changed for each topic edit, with the old topic (a topic may hold " to ")', () => {
    expect(topicBefore('Topic changed from a to b to c', 'b to c')).toBe('a');
    expect(topicBefore('Topic changed from a to b to c', 'c')).toBe('a to b');
    expect(topicBefore('Topic set to x', 'x')).toBe('');
    expect(topicBefore('Topic x removed', '')).toBe('x');
    expect(topicBefore('Something else', '')).toBeNull();
    const edited = change({
      topic: 'one to two',
      messages: (
        [
          [dev, '10:01', 'Topic set to x'],
          [dev, '10:03', 'Topic x removed'],
          [core, '10:04', 'Topic set to one'],
          [dev, '10:05', 'Topic changed from one to one to two'],
        ] as const
      ).map(([author, time, message]) => ({
        author,
        date: `2026-01-01 ${time}:00.000000000`,
        message,
        tag: tag('setTopic'),
      })),
    });
    const events = missedEvents(edited, since).filter((e) => e.type === 'topic-changed');
    expect(
      events.map((e) => [(e.changer as { username: string }).username, e.oldTopic, e.change?.topic, e.patchSet]),
    ).toEqual([
      ['dev', 'x', undefined, undefined],
      ['core', '', 'one', undefined],
      ['dev', 'one', 'one to two', undefined],
    ]);
  });
});

function tag(kind: string): string {
  return `autogenerated:gerrit:${kind}`;
}
