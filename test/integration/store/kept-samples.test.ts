/**
 * The duration samples a scheduler keeps between passes (`withRunsAppended`,
 * src/store/repositories/duration-samples.ts; docs/gating.md#performance) are the samples the
 * store holds after the same runs are written: over random batches of runs (retried attempts,
 * runs of no measurable time, more runs than a key keeps, keys of no row yet), for the keys kept,
 * and nothing for the others.
 */
import {
  DurationSampleRepository,
  SampleBatch,
  withRunsAppended,
  type SampleAppend,
} from '../../../src/store/repositories/duration-samples';
import { SAMPLE_LIMIT, jobSampleKeys, sampleKeyText, type DurationSamples } from '../../../src/model/estimates';
import { backends, createTestDatabase, type TestDatabase } from '../../helpers/database';
import { Random } from '../../helpers/fuzz';

describe.each(backends())('duration samples kept by a scheduler (%s)', (backend) => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase({ backend });
  });

  afterAll(async () => {
    await db.destroy();
  });

  it('equal the stored samples after random batches of runs', async () => {
    const tenant = `kept-samples-${backend}`;
    const random = new Random(20261130);
    const repository = new DurationSampleRepository(db.knex);
    // Three jobs on two branches: each run appends to its branch, project and job keys.
    const targets = ['unit', 'lint', 'docs'].flatMap((job) =>
      ['master', 'stable'].map((branch) => jobSampleKeys('example.org/org/project', branch, job)),
    );
    const allKeys = [...new Map(targets.flat().map((key) => [sampleKeyText(key), key])).values()];
    // The scheduler keeps only the keys its deltas need: the others must not appear.
    const keptKeys = allKeys.filter((_, index) => index % 3 !== 2);
    const keptTexts = new Set(keptKeys.map(sampleKeyText));
    let kept: Map<string, DurationSamples> = new Map();
    let runsWritten = 0;
    for (let round = 0; round < 25; round += 1) {
      const batch = new SampleBatch();
      const runs: SampleAppend[] = [];
      const count = 1 + Math.floor(random.next() * (round % 5 === 4 ? 2 * SAMPLE_LIMIT : 12));
      for (let n = 0; n < count; n += 1) {
        const pick = random.next();
        const outcome: SampleAppend['outcome'] = pick < 0.6 ? 's' : pick < 0.85 ? 'f' : 'r';
        const shape = random.next();
        const seconds = shape < 0.1 ? 0 : shape < 0.5 ? Math.floor(random.next() * 600) : random.next() * 1000;
        runs.push({ tenant, keys: random.pick(targets), outcome, seconds });
      }
      // Every other round takes its runs in two writes, as a pass's history may be written twice.
      const split = round % 2 === 1 ? Math.floor(runs.length / 2) : 0;
      for (const part of [runs.slice(0, split), runs.slice(split)]) {
        part.forEach((run) => batch.add(run));
        await batch.flush(db.knex);
      }
      expect(batch.taken()).toEqual(runs);
      runsWritten += batch.taken().length;
      kept = withRunsAppended(kept, keptTexts, batch.taken());
      const stored = await repository.read(tenant, keptKeys);
      expect(new Map([...kept].sort())).toEqual(new Map([...stored].sort()));
      expect([...kept.keys()].every((text) => keptTexts.has(text))).toBe(true);
    }
    expect(runsWritten).toBeGreaterThan(4 * SAMPLE_LIMIT);
    // Some key was cut to its limit, so the cut is what was compared.
    expect([...kept.values()].some((samples) => samples.outcomes.length === SAMPLE_LIMIT)).toBe(true);
  });
});
