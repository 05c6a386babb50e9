/**
 * The completions of a work runner's round (src/engine/work/completions.ts,
 * docs/gating.md#engine-work): sent behind the runner's next calls, those done while a write is
 * under way go together in the next one; after a failed write nothing more is written and
 * `flush` throws its error.
 */
import { Completions } from '../../src/engine/work/completions';
import type { EngineWorkRepository, WorkCompletion } from '../../src/store/repositories/engine-work';
import { FakeClock } from '../engine/scripted-layout';

/** A repository whose writes answer when the test says: each write's row ids, in order. */
function heldRepository() {
  const writes: number[][] = [];
  const answers: Array<(error?: Error) => void> = [];
  const repo = {
    completeMany: (entries: readonly WorkCompletion[]) =>
      new Promise<number>((resolve, reject) => {
        writes.push(entries.map((entry) => entry.record.id));
        answers.push((error) => (error ? reject(error) : resolve(entries.length)));
      }),
  } as unknown as EngineWorkRepository;
  return { repo, writes, answer: (index: number, error?: Error) => answers[index](error) };
}

function completion(id: number): WorkCompletion {
  return {
    record: { id } as WorkCompletion['record'],
    outcome: 'merged',
    event: { type: 'report-completed', work: id, buildsetUuid: `bs-${id}`, error: null },
  };
}

/** Let the promises that can settle settle. */
const settled = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('work completions', () => {
  it('sends at once and puts what is done meanwhile into the next write', async () => {
    const { repo, writes, answer } = heldRepository();
    const completedWrites: number[] = [];
    const completions = new Completions(repo, 1, new FakeClock(), () => completedWrites.push(writes.length));
    completions.add(completion(1));
    completions.send();
    await settled();
    expect(writes).toEqual([[1]]);
    // Done while the first write is out: they wait for it, then go together.
    completions.add(completion(2));
    completions.send();
    completions.add(completion(3));
    completions.send();
    await settled();
    expect(writes).toEqual([[1]]);
    answer(0);
    await settled();
    expect(writes).toEqual([[1], [2, 3]]);
    const flushed = completions.flush();
    answer(1);
    await flushed;
    expect(writes).toEqual([[1], [2, 3]]);
    expect(completedWrites).toEqual([1, 2]);
  });

  it('flushes after the write under way, with what is left', async () => {
    const { repo, writes, answer } = heldRepository();
    const completions = new Completions(repo, 1, new FakeClock(), () => undefined);
    completions.add(completion(1));
    completions.send();
    completions.add(completion(2));
    const flushed = completions.flush();
    await settled();
    expect(writes).toEqual([[1]]);
    answer(0);
    await settled();
    expect(writes).toEqual([[1], [2]]);
    answer(1);
    await expect(flushed).resolves.toBeUndefined();
  });

  it('writes nothing more after a failed write, and flush throws its error', async () => {
    const { repo, writes, answer } = heldRepository();
    const completions = new Completions(repo, 1, new FakeClock(), () => undefined);
    completions.add(completion(1));
    completions.send();
    completions.add(completion(2));
    completions.send();
    await settled();
    expect(completions.failed).toBe(false);
    answer(0, new Error('connection lost'));
    await completions.settle();
    expect(completions.failed).toBe(true);
    completions.add(completion(3));
    completions.send();
    await expect(completions.flush()).rejects.toThrow('connection lost');
    expect(writes).toEqual([[1]]);
  });

  it('tells when the oldest unrecorded completion has waited 100 ms', () => {
    const clock = new FakeClock();
    const { repo } = heldRepository();
    const completions = new Completions(repo, 1, clock, () => undefined);
    expect(completions.due()).toBe(false);
    completions.add(completion(1));
    clock.advance(99);
    completions.add(completion(2));
    expect(completions.due()).toBe(false);
    clock.advance(1);
    expect(completions.due()).toBe(true);
  });
});
