/**
 * The index of a queue's items (src/engine/queue-index.ts) finds exactly what a look at every
 * item finds: the items holding a change as `sameChange` compares them (an enqueue), the first
 * holding any of several (a cycle), and those holding a change of a project and number, any
 * patchset (a trigger event); over random queues of changes and ref updates (patchsets, refs and
 * revisions shared between items, numbers of no change), while items are pushed onto the queue's
 * array between look-ups (an enqueue) and after it is given a new one (a dequeue).
 */
import { sameChange, type ChangeInfo } from '../../src/model/changes';
import type { ItemState, QueueState } from '../../src/model/pipeline-state';
import { firstItemHoldingAny, itemsHolding, itemsHoldingNumber } from '../../src/engine/queue-index';

/** A deterministic generator (a linear congruential one), so a failure can be run again. */
function generator(seed: number): (below: number) => number {
  let state = seed;
  return (below) => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return Math.floor((state / 2147483648) * below);
  };
}

function randomChange(random: (below: number) => number): ChangeInfo {
  const project = ['org/a', 'org/b'][random(2)];
  const kind = (['change', 'change', 'change', 'branch', 'tag', 'ref'] as const)[random(6)];
  const numbered = kind === 'change' || random(4) === 0;
  return {
    kind,
    project,
    number: numbered ? 1 + random(4) : null,
    patchset: kind === 'change' ? String(1 + random(2)) : null,
    ref: kind === 'change' ? null : ['refs/heads/main', 'refs/tags/v1', 'null'][random(3)],
    newrev: kind === 'change' ? null : ['a1', 'b2', null][random(3)],
  } as unknown as ChangeInfo;
}

function randomItem(random: (below: number) => number, uuid: string): ItemState {
  return {
    uuid,
    changes: Array.from({ length: 1 + random(2) }, () => randomChange(random)),
  } as unknown as ItemState;
}

const holds = (item: ItemState, change: ChangeInfo) => item.changes.some((held) => sameChange(held, change));

describe('engine: the index of a queue', () => {
  it('finds what a look at every item finds, as items are pushed and the array replaced', () => {
    const random = generator(33);
    let made = 0;
    for (let round = 0; round < 300; round += 1) {
      const queues: QueueState[] = [0, 1].map(
        () => ({ items: Array.from({ length: random(8) }, () => randomItem(random, `u${made++}`)) }) as QueueState,
      );
      for (let step = 0; step < 12; step += 1) {
        const queue = queues[random(2)];
        const pick = random(6);
        if (pick === 0) {
          queue.items.push(randomItem(random, `u${made++}`));
        } else if (pick === 1 && queue.items.length > 0) {
          const gone = queue.items[random(queue.items.length)];
          queue.items = queue.items.filter((candidate) => candidate !== gone);
        }
        const change = randomChange(random);
        const members = [change, randomChange(random)];
        expect(itemsHolding(queue, change)).toEqual(queue.items.filter((item) => holds(item, change)));
        expect(firstItemHoldingAny(queue, members)).toBe(
          queue.items.find((item) => members.some((member) => holds(item, member))) ?? null,
        );
        const number = 1 + random(4);
        expect(itemsHoldingNumber(queues, change.project, number)).toEqual(
          queues.flatMap((each) =>
            each.items
              .filter((item) => item.changes.some((held) => held.project === change.project && held.number === number))
              .map((item) => ({ queue: each, item })),
          ),
        );
      }
    }
  });
});
