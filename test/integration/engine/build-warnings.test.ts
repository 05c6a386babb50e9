/**
 * Build warnings in reports (docs/gating.md#reporting): the warnings of every completed build of
 * the item's buildset (a retried build's too) are kept with the buildset, survive a restart and
 * follow the report text as a `Warning:` block, after the speculative layout's warning and before
 * the footer; a buildset made anew by a reset starts without them.
 */
import type { EngineHarness } from '../../engine/harness';
import { engineScenarios } from '../../engine/scenarios';
import { job, pipeline, type LayoutSpec } from '../../engine/scripted-layout';

describe('engine: build warnings in the report text', () => {
  const scenarios = engineScenarios();
  const { harness } = scenarios;

  const spec = (): Omit<LayoutSpec, 'tenant'> => {
    const check = pipeline('check', 'independent', { triggers: [] });
    check.messages = { ...check.messages, footer: 'The footer.' };
    return {
      pipelines: [check],
      projects: [{ name: 'org/project' }],
      jobs: { 'org/project': { check: [job('unit', { attempts: 2 }), job('lint')] } },
    };
  };

  const reportedMessages = (h: EngineHarness): string[] =>
    h.deltas.flatMap((delta) => (delta.type === 'item-reported' ? [delta.message] : []));

  it('appends the warnings of every build, retried ones included, kept across a restart', async () => {
    const first = await harness(spec());
    first.changes.add('org/project', 1);
    await first.enqueue('check', 'org/project', '1,1');
    // The first attempt of unit is lost (retried) but its warning stays, as the reference keeps it.
    await first.executor.finish('unit', 1, { result: null, warnings: ['first attempt: disk almost full'] });
    await first.executor.finish('lint', 1, { result: 'SUCCESS', warnings: ['lint: 2 files skipped'] });
    await first.settle();
    const stored = await first.engine.status(first.tenant);
    expect(stored?.pipelines[0].changeQueues[0].heads[0]).toHaveLength(1);

    const next = await scenarios.restart(first, { keepExecutor: false });
    await next.executor.finish('unit', 1, { result: 'SUCCESS', warnings: ['unit: deprecated option'] });
    await next.settle();
    expect(next.errors).toEqual([]);
    const [message] = reportedMessages(next);
    expect(message).toMatch(/^Build succeeded/);
    expect(message.split('\n\nWarning:\n')[1]).toBe(
      ['  first attempt: disk almost full', '  lint: 2 files skipped', '  unit: deprecated option'].join('\n') +
        '\n\nThe footer.',
    );
    const [buildset] = await next.buildsets();
    expect(buildset.message).toBe(message);
  });

  it('reports no warning block when no build warned', async () => {
    const h = await harness(spec());
    h.changes.add('org/project', 2);
    await h.enqueue('check', 'org/project', '2,1');
    await h.executor.finishAll({ result: 'SUCCESS', warnings: [] });
    await h.settle();
    const [message] = reportedMessages(h);
    expect(message).not.toContain('Warning:');
    expect(message.endsWith('\n\nThe footer.')).toBe(true);
  });
});
