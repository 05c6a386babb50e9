/**
 * docs/live.md#applying-changes: the placement steps of a queue (or of pipelines, queues in a
 * pipeline), applied one after the other to the old order without the ids that left, give the
 * new order; ids that keep their place get no step.
 */
import { placements } from '../../src/engine/status-diff';

function apply(before: readonly string[], after: readonly string[], steps: ReturnType<typeof placements>): string[] {
  const kept = new Set(after);
  const list = before.filter((id) => kept.has(id));
  for (const step of steps) {
    const at = list.indexOf(step.id);
    if (at >= 0) {
      list.splice(at, 1);
    }
    list.splice(step.index, 0, step.id);
  }
  return list;
}

/** mulberry32 */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('placements', () => {
  const none = (): boolean => false;

  it('says nothing about items that keep their order when others leave or join at the end', () => {
    expect(placements(['a', 'b', 'c'], ['b', 'c'], none)).toEqual([]);
    expect(placements(['a', 'b'], ['a', 'b', 'c'], none)).toEqual([{ id: 'c', index: 2, added: true }]);
  });

  it('moves a promoted item with one step, and reports items changed in place when asked', () => {
    expect(placements(['a', 'b', 'c'], ['c', 'a', 'b'], none)).toEqual([{ id: 'c', index: 0, added: false }]);
    expect(placements(['a', 'b'], ['a', 'b'], (id) => id === 'b')).toEqual([{ id: 'b', index: 1, added: false }]);
  });

  it('gives the new order on 2,000 random reorderings with items leaving and joining', () => {
    const next = random(17);
    for (let run = 0; run < 2000; run += 1) {
      const before = Array.from({ length: Math.floor(next() * 12) }, (_, i) => `i${i}`);
      const after = before.filter(() => next() > 0.2);
      for (let i = after.length - 1; i > 0; i -= 1) {
        if (next() < 0.3) {
          const j = Math.floor(next() * (i + 1));
          [after[i], after[j]] = [after[j], after[i]];
        }
      }
      for (let added = Math.floor(next() * 3); added > 0; added -= 1) {
        after.splice(Math.floor(next() * (after.length + 1)), 0, `n${run}-${added}`);
      }
      expect(apply(before, after, placements(before, after, none))).toEqual(after);
    }
  });
});
