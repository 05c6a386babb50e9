/**
 * `itemsAheadHolding` (src/engine/item-predicates.ts) finds, with its index of the queue and its
 * walk that stops early, exactly the items of the chain ahead that hold a change, as filtering
 * `itemsAhead` does: over random queues (trees, chains reaching items behind, loops, uuids of no
 * item, a change in two items, changes of two projects; an item's uuid is its own, `PassContext.uuid`) and after the queue's items
 * change (an enqueue pushes, a dequeue gives a new array).
 */
import { itemsAhead, itemsAheadHolding } from '../../src/engine/item-predicates';
import type { ItemState, QueueState } from '../../src/model/pipeline-state';

type Wanted = Array<{ project: string; number: number }>;

const PROJECTS = ['org/a', 'org/b'];

/** A deterministic generator (a linear congruential one), so a failure can be run again. */
function generator(seed: number): (below: number) => number {
  let state = seed;
  return (below) => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return Math.floor((state / 2147483648) * below);
  };
}

function item(uuid: string, itemAhead: string | null, changes: Wanted): ItemState {
  return {
    uuid,
    itemAhead,
    changes: changes.map(({ project, number }) => ({ kind: 'change', project, number, dependsOn: [] })),
  } as unknown as ItemState;
}

function queueOf(items: ItemState[]): QueueState {
  return { items } as unknown as QueueState;
}

/** What filtering the whole chain ahead finds. */
function expected(queue: QueueState, of: ItemState, wanted: Wanted): ItemState[] {
  return itemsAhead(queue, of).filter((candidate) =>
    candidate.changes.some((change) =>
      wanted.some((one) => one.project === change.project && one.number === change.number),
    ),
  );
}

function randomChanges(random: (below: number) => number, count: number): Wanted {
  return Array.from({ length: count }, () => ({ project: PROJECTS[random(2)], number: 1 + random(10) }));
}

function randomQueue(random: (below: number) => number): QueueState {
  const size = 1 + random(12);
  const uuids = Array.from({ length: size }, (_, index) => `u${index}`);
  const items = uuids.map((uuid, index) => {
    const pick = random(10);
    // Mostly the item just before or one further ahead; sometimes none, one behind, itself or no item.
    const ahead =
      pick < 5 && index > 0
        ? uuids[index - 1]
        : pick < 8 && index > 0
          ? uuids[random(index)]
          : pick === 8
            ? uuids[random(size)]
            : random(2) === 0
              ? null
              : 'gone';
    return item(uuid, ahead, randomChanges(random, 1 + random(2)));
  });
  return queueOf(items);
}

describe('engine: items ahead holding a change', () => {
  it('are those of the chain ahead holding one, in chain order, whatever the shape of the queue', () => {
    const random = generator(33);
    for (let round = 0; round < 2000; round += 1) {
      const queue = randomQueue(random);
      const wanted = randomChanges(random, random(4));
      for (const of of queue.items) {
        expect(itemsAheadHolding(queue, of, wanted)).toEqual(expected(queue, of, wanted));
      }
    }
  });

  it('follow the queue when an item is pushed onto its items or they are replaced', () => {
    const queue = queueOf([item('a', null, [{ project: 'org/a', number: 1 }])]);
    const second = item('b', 'a', [{ project: 'org/a', number: 2 }]);
    expect(itemsAheadHolding(queue, second, [{ project: 'org/a', number: 2 }])).toEqual([]);
    queue.items.push(second);
    const third = item('c', 'b', [{ project: 'org/a', number: 3 }]);
    queue.items.push(third);
    const wanted = [
      { project: 'org/a', number: 1 },
      { project: 'org/a', number: 2 },
    ];
    expect(itemsAheadHolding(queue, third, wanted).map((found) => found.uuid)).toEqual(['b', 'a']);
    queue.items = queue.items.filter((candidate) => candidate.uuid !== 'b');
    third.itemAhead = 'a';
    expect(itemsAheadHolding(queue, third, wanted).map((found) => found.uuid)).toEqual(['a']);
    expect(itemsAheadHolding(queue, third, [{ project: 'org/b', number: 1 }])).toEqual([]);
    // A new array of the same length (as a load gives).
    queue.items = [queue.items[0], item('d', 'a', [{ project: 'org/b', number: 1 }])];
    const fourth = item('e', 'd', []);
    expect(itemsAheadHolding(queue, fourth, [{ project: 'org/b', number: 1 }]).map((found) => found.uuid)).toEqual([
      'd',
    ]);
  });
});
