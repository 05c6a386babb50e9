/** Which pending events reload configuration before a pass (docs/gating.md#speculative-layouts, "After the merge"). */
import { ZERO_REVISION } from '../../src/model/changes';
import type { TriggerEvent } from '../../src/model/engine-events';
import type { EngineEventRecord } from '../../src/store/repositories/engine-events';
import { branchUpdatesOf, reloadForBranchUpdates } from '../../src/engine/work/branch-updates';

let id = 0;
const trigger = (event: Partial<TriggerEvent> & Pick<TriggerEvent, 'type'>): EngineEventRecord => ({
  id: ++id,
  tenant: 't',
  eventType: event.type,
  created: new Date(0),
  valid: true,
  category: 'trigger',
  event: { project: 'org/p', ...event },
});

describe('branch updates before a pass', () => {
  it('takes ref-updated, push and change-merged of branches, not tags, deletions or other events', () => {
    const pending = [
      trigger({ type: 'ref-updated', ref: 'refs/heads/master', newrev: 'a1' }),
      trigger({ type: 'ref-updated', ref: 'refs/tags/v1', newrev: 'a2' }),
      trigger({ type: 'ref-updated', ref: 'refs/heads/gone', newrev: ZERO_REVISION }),
      trigger({ type: 'push', branch: 'stable', newrev: 'a3' }),
      trigger({ type: 'change-merged', branch: 'master', change: 4 }),
      trigger({ type: 'patchset-created', branch: 'master', change: 5 }),
    ];
    expect(branchUpdatesOf(pending)).toEqual([
      { project: 'org/p', branch: 'master', newrev: 'a1' },
      { project: 'org/p', branch: 'stable', newrev: 'a3' },
      { project: 'org/p', branch: 'master', newrev: null },
    ]);
  });

  it('asks the configuration gateway only when there are updates', async () => {
    const asked: unknown[] = [];
    const gateway = {
      branchesUpdated: (tenant: string, updates: readonly unknown[]) => {
        asked.push([tenant, updates.length]);
        return Promise.resolve(true);
      },
    };
    expect(await reloadForBranchUpdates(gateway, 't', [trigger({ type: 'patchset-created', change: 1 })])).toBe(false);
    expect(await reloadForBranchUpdates(undefined, 't', [trigger({ type: 'push', branch: 'master' })])).toBe(false);
    expect(await reloadForBranchUpdates(gateway, 't', [trigger({ type: 'push', branch: 'master' })])).toBe(true);
    expect(asked).toEqual([['t', 1]]);
  });
});
