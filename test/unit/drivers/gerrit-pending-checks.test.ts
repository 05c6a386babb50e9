/**
 * The checkers `pending-check` triggers name and the event of a pending check
 * (docs/gerrit.md#events-missed-while-no-stream-listened), as the reference reads Gerrit's checks plugin.
 */
import { pendingCheckEvent, watchedCheckers } from '../../../src/drivers/gerrit/pending-checks';

describe('Gerrit pending checks', () => {
  it('watches the uuids and schemes of pending-check filters only', () => {
    expect(
      watchedCheckers([
        { event: 'pending-check', uuid: 'zuul:check' },
        { event: ['pending-check', 'patchset-created'], scheme: 'sluice' },
        { event: 'patchset-created', uuid: 'ignored:x' },
        { event: 'pending-check', uuid: 'zuul:check' },
      ]),
    ).toEqual({ uuids: ['zuul:check'], schemes: ['sluice'] });
    expect(watchedCheckers([])).toEqual({ uuids: [], schemes: [] });
  });

  it("makes the reference's pending-check event, its scheme the uuid's first part", () => {
    const pending = { patch_set: { repository: 'org/app', change_number: 7, patch_set_id: 2 } };
    expect(pendingCheckEvent(pending, 'sluice:lint')).toEqual({
      type: 'pending-check',
      uuid: 'sluice:lint',
      scheme: 'sluice',
      change: { project: 'org/app', number: 7 },
      patchSet: { number: 2 },
    });
    expect(pendingCheckEvent({}, 'sluice:lint')).toBeNull();
  });
});
