/**
 * The layout of a large tenant is built in slices (src/config/time-slice.ts,
 * docs/operations.md#configuration-reloads): while `buildLayout` runs, timers keep firing and no
 * stretch between them uses much CPU; `buildLayoutSync` gives the same layout in one go.
 */
import { buildLayout, buildLayoutSync } from '../../../src/config/layout-builder';
import { memoryLayoutInput, type MemoryProject } from '../../helpers/memory-layout';
import { BRANCHES, COMMON, projectConfig } from '../../helpers/large-tenant';
import { cpuPerTurn } from '../../helpers/event-loop-turns';

/** 200 projects x 10 jobs on 3 branches: the 2,000 jobs of bench/config-load.ts. */
function largeTenant(): MemoryProject[] {
  const projects: MemoryProject[] = [{ name: 'config', trusted: true, branches: { master: { 'zuul.yaml': COMMON } } }];
  for (let i = 0; i < 200; i += 1) {
    const text = projectConfig(i, 10);
    projects.push({
      name: `org/project-${String(i).padStart(3, '0')}`,
      branches: Object.fromEntries(
        BRANCHES.map((b) => [b, { '.zuul.yaml': b === 'master' ? text : `${text}\n# ${b}\n` }]),
      ),
    });
  }
  return projects;
}

test('a 2,000-job layout is built in slices, with timers firing throughout', async () => {
  const input = memoryLayoutInput(largeTenant(), '', undefined, { bench: 'git' });
  const expected = buildLayoutSync(input);
  expect(expected.jobs.size).toBe(2_002);

  let ticks = 0;
  const ticker = setInterval(() => (ticks += 1), 1);
  const turns = cpuPerTurn();
  const layout = await buildLayout(input);
  const longestTurnCpuMs = turns.stop();
  clearInterval(ticker);

  expect(layout.jobs.size).toBe(2_002);
  expect([...layout.jobs.keys()]).toEqual([...expected.jobs.keys()]);
  expect(layout.errors.map((e) => e.keyHash)).toEqual(expected.errors.map((e) => e.keyHash));
  // A synchronous build lets no timer run at all; a sliced one gives the loop back every ~10 ms.
  expect(ticks).toBeGreaterThanOrEqual(20);
  expect(longestTurnCpuMs).toBeLessThan(250);
}, 120_000);
