/**
 * Gerrit's submit requirements and `submittable` (docs/gerrit.md#submit-requirements) through the
 * real server and the fake Gerrit: an unsatisfied requirement on a label the pipeline's success
 * reporters vote (`Verified`) does not keep a change out of `gate`; one on another label (`Legal`)
 * refuses the change at enqueue, with the reason in the event's outcome, until it is satisfied; a
 * requirement that becomes unsatisfied while the change is tested stops the merge before Gerrit's
 * submit is asked, the reason being the item's merge failure; where Gerrit answers no submit
 * requirements, a legacy submit rule's records (`submit_records`) name the labels still needed.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FakeChange } from '../../helpers/fake-gerrit/server';
import { until } from '../../helpers/github-tenant';
import { eventually, type GerritTenant, itemsIn, lastVote, startGerritGateTenant } from '../../helpers/gerrit-tenant';

jest.setTimeout(300_000);

describe('Gerrit submit requirements', () => {
  let env: GerritTenant;
  let scratch: string;

  beforeAll(async () => {
    scratch = mkdtempSync(path.join(os.tmpdir(), 'sluice-gerrit-sr-'));
    env = await startGerritGateTenant();
    env.gerrit.labels.requirements.push(
      { name: 'Code-Review', label: 'Code-Review' },
      { name: 'Verified', label: 'Verified' },
    );
  });

  afterAll(async () => {
    await env?.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  /** The outcome of the engine's comment-added event of this change by this voter, once judged. */
  const judged = async (change: FakeChange, account: string, nth = 0) => {
    const rows: Array<{ payload: { change?: number; account?: string }; outcome: string }> = await env.server.database
      .knex('engine_events')
      .where({ event_type: 'comment-added' })
      .whereNotNull('processed')
      .orderBy('id')
      .select('payload', 'outcome');
    return rows.filter((row) => row.payload.change === change.number && row.payload.account === account)[nth]?.outcome;
  };

  /** Checked, then approved by `core`: the outcome of that approval once the engine judged it. */
  const checkedThenApproved = async (change: FakeChange) => {
    await until('check', () => lastVote(change, 'Verified') === 1);
    env.gerrit.review(change.number, 'core', { 'Code-Review': 2, Approved: 1 });
    let outcome: string | undefined;
    await eventually('the approval judged', async () => (outcome = await judged(change, 'core')) !== undefined);
    return outcome;
  };

  /** Approved again by `core` once what was missing is there: the change is gated and submitted. */
  const approvedAgainAndSubmitted = async (change: FakeChange) => {
    env.gerrit.review(change.number, 'core', { Approved: 0 });
    env.gerrit.review(change.number, 'core', { Approved: 1 });
    await until('submitted', () => change.status === 'MERGED');
  };

  it('gates a change whose only unsatisfied requirement is on a label the gate votes', async () => {
    const { gerrit } = env;
    const change = await gerrit.upload('org/app', { subject: 'Needs Verified', files: { 'v.txt': 'v\n' } });
    await until('check', () => lastVote(change, 'Verified') === 1);
    gerrit.review(change.number, 'core', { 'Code-Review': 2, Approved: 1 });
    await until('submitted', () => change.status === 'MERGED');
    expect(lastVote(change, 'Verified')).toBe(2);
    // The submittability was read before the submit.
    const reads = gerrit.requests.filter((r) => r.path.startsWith(`/a/changes/org%2Fapp~${change.number}?`));
    expect(reads.at(-1)?.path).toContain('o=SUBMIT_REQUIREMENTS');
  });

  it('refuses a change at enqueue while a requirement on another label is unsatisfied', async () => {
    const { gerrit, server } = env;
    gerrit.labels.requirements.push({ name: 'Legal', label: 'Legal' });
    const change = await gerrit.upload('org/app', { subject: 'Needs Legal', files: { 'l.txt': 'l\n' } });
    expect(await checkedThenApproved(change)).toBe(
      `entered 0; refused by gate: Change ${change.number},1 in project review.example.com/org/app can not be merged ` +
        'due to: submit requirement Legal unsatisfied (label:Legal=MAX AND -label:Legal=MIN)',
    );
    expect(await itemsIn(server, 'gate')).toEqual([]);
    expect(lastVote(change, 'Verified')).toBe(1);
    // Satisfied, the change is approved again and gated.
    gerrit.review(change.number, 'legal', { Legal: 1 });
    await approvedAgainAndSubmitted(change);
    expect(lastVote(change, 'Verified')).toBe(2);
  });

  it('does not ask Gerrit to submit a change whose requirement became unsatisfied while it was tested', async () => {
    const { gerrit, server } = env;
    const held = path.join(scratch, 'held');
    writeFileSync(held, '');
    const change = await gerrit.upload('org/app', { subject: 'Vetoed', files: { HOLD: held, 'x.txt': 'x\n' } });
    gerrit.review(change.number, 'legal', { Legal: 1 });
    gerrit.review(change.number, 'core', { 'Code-Review': 2, Approved: 1 });
    await eventually('in gate', async () => (await itemsIn(server, 'gate')).includes(`${change.number},1`));
    gerrit.review(change.number, 'legal', { Legal: -1 });
    rmSync(held);
    await eventually('gate empty', async () => (await itemsIn(server, 'gate')).length === 0);
    expect(change.status).toBe('NEW');
    const submits = gerrit.requests.filter(
      (r) => r.method === 'POST' && r.path === `/a/changes/org%2Fapp~${change.number}/submit`,
    );
    expect(submits).toEqual([]);
    const answer = await fetch(`${server.url}/api/tenant/acme/buildsets?pipeline=gate&change=${change.number}`);
    const [buildset] = (await answer.json()) as Array<{ result: string; message: string }>;
    expect(buildset).toMatchObject({ result: 'MERGE_FAILURE' });
    // Legal's lowest vote blocks (a missing label, as the reference reads it) and fails its requirement.
    expect(String(buildset?.message)).toMatch(new RegExp(`Change ${change.number} can not be submitted: .*Legal`));
  });

  it('reads the submit records of a legacy submit rule where Gerrit answers no submit requirements', async () => {
    const { gerrit, server } = env;
    gerrit.labels.requirements.length = 0;
    gerrit.labels.rules.push('Non-Author-Code-Review');
    const change = await gerrit.upload('org/app', { subject: 'Needs a rule', files: { 'n.txt': 'n\n' } });
    expect(await checkedThenApproved(change)).toBe(
      `entered 0; refused by gate: Change ${change.number},1 in project review.example.com/org/app can not be merged ` +
        'due to: missing labels: Non-Author-Code-Review',
    );
    expect(await itemsIn(server, 'gate')).toEqual([]);
    // The rule's label voted, the change is approved again and gated.
    gerrit.review(change.number, 'peer', { 'Non-Author-Code-Review': 1 });
    await approvedAgainAndSubmitted(change);
  });
});
