/**
 * What the fake Gerrit (test/helpers/fake-gerrit/server.ts) keeps of accounts and changes, and
 * the shapes Gerrit writes them in: its time format, votes as review messages write them and a
 * change as stream events carry it.
 */

export interface Account {
  username: string;
  email: string;
  name: string;
  _account_id: number;
}

export interface FakeChange {
  number: number;
  project: string;
  branch: string;
  changeId: string;
  subject: string;
  status: 'NEW' | 'MERGED' | 'ABANDONED';
  owner: Account;
  patchsets: Array<{ number: number; revision: string; ref: string; message: string; parent: string; created: string }>;
  votes: Array<{ label: string; value: number; by: Account; date: string }>;
  /** Review messages (votes and comments, from tests and from Sluice), in order. */
  messages: Array<{
    author: Account;
    date: string;
    message: string;
    _revision_number: number;
    tag?: string;
    /** The accounts the message names by template (`<GERRIT_ACCOUNT_1001>`), as Gerrit 3.5 and later answer. */
    accounts_in_message?: Account[];
  }>;
  /** When the change last changed, and when it was submitted (Gerrit's time format). */
  updated: string;
  submitted?: string;
  /** Reviews posted over REST, in order. */
  reviews: Array<{
    by: string;
    patchset: string;
    message?: string;
    labels?: Record<string, number>;
    notify?: string;
    /** Inline comments by path (Gerrit's `CommentInput`s). */
    comments?: Record<string, Array<Record<string, unknown>>>;
  }>;
  /** Set by a test: the next submit is refused with this message (409). */
  refuseSubmit: string | null;
  /** The change's topic, if any. */
  topic?: string;
  /** Work in progress. */
  wip?: boolean;
  /** The change's hashtags. */
  hashtags?: string[];
}

let accountIds = 1000;
export function account(username: string): Account {
  return { username, email: `${username}@example.com`, name: username, _account_id: accountIds++ };
}

/** Gerrit's time format (UTC, nanoseconds). */
export function gerritDate(date = new Date()): string {
  return `${date.toISOString().replace('T', ' ').replace('Z', '')}000000`;
}

/** A vote as Gerrit writes it in a review message: `Code-Review+2`, `Verified-1`, `-Workflow` (removed). */
export function voteText(label: string, value: number): string {
  return value === 0 ? `-${label}` : `${label}${value > 0 ? '+' : ''}${value}`;
}

/** The change and its newest patch set as a stream event carries them, stamped now. */
export function eventChange(change: FakeChange, baseUrl: string) {
  const current = change.patchsets.at(-1);
  return {
    change: {
      project: change.project,
      branch: change.branch,
      id: change.changeId,
      number: change.number,
      subject: change.subject,
      owner: change.owner,
      url: `${baseUrl}/c/${change.project}/+/${change.number}`,
      status: change.status,
      ...(change.topic === undefined ? {} : { topic: change.topic }),
    },
    patchSet: { number: current?.number, revision: current?.revision, ref: current?.ref },
    eventCreatedOn: Math.floor(Date.now() / 1000),
  };
}
