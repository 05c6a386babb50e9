/** Focused job-freezing rules on small in-memory layouts. */
import { freezeJobGraph } from '../../../src/config/freeze';
import { toEngineLayout } from '../../../src/engine/layout-adapter';
import { memoryLayout } from '../../helpers/memory-layout';

const COMMON = `
- pipeline: {name: check, manager: independent, trigger: {}}
- job:
    name: base
    parent: null
    run: base.sh
`;

function jobsOf(result: ReturnType<typeof freezeJobGraph>) {
  if (result.status !== 'ok') {
    throw new Error(`freeze failed: ${JSON.stringify(result)}`);
  }
  return result.jobs;
}

describe('freezeJobGraph rules', () => {
  it('runs the built-in noop job without nodes', () => {
    const layout = memoryLayout([
      {
        name: 'config',
        trusted: true,
        branches: { master: { 'zuul.yaml': `${COMMON}\n- project: {name: org/a, check: {jobs: [noop]}}\n` } },
      },
      { name: 'org/a', branches: { master: {} } },
    ]);
    const [noop] = jobsOf(freezeJobGraph(layout, { pipeline: 'check', project: 'org/a', branch: 'master' }));
    expect(noop).toMatchObject({ name: 'noop', parent: null, run: [], deduplicate: true, nodesetAlternatives: [] });
  });

  it('selects variants by override-checkout when the branch exists in the variant project', () => {
    const layout = memoryLayout([
      { name: 'config', trusted: true, branches: { master: { 'zuul.yaml': COMMON } } },
      {
        name: 'org/lib',
        branches: {
          master: { 'zuul.yaml': '- job: {name: lib-test, run: master.sh}\n' },
          stable: { 'zuul.yaml': '- job: {name: lib-test, run: stable.sh}\n' },
        },
      },
      {
        name: 'org/app',
        branches: {
          master: {
            'zuul.yaml':
              '- project:\n    check:\n      jobs:\n        - lib-test: {override-checkout: stable}\n        - lib-test\n',
          },
        },
      },
    ]);
    const [job] = jobsOf(freezeJobGraph(layout, { pipeline: 'check', project: 'org/app', branch: 'master' }));
    expect(job.run.map((p) => p.path)).toEqual(['stable.sh']);
    expect(job.overrideCheckout).toBe('stable');
  });

  it('enforces attribute-control final on later variants', () => {
    const layout = memoryLayout([
      {
        name: 'config',
        trusted: true,
        branches: {
          master: {
            'zuul.yaml': `${COMMON}\n- job: {name: locked, run: l.sh, vars: {a: 1}, attribute-control: {vars: {final: true}}}\n- project: {name: org/a, check: {jobs: [{locked: {vars: {a: 2}}}]}}\n`,
          },
        },
      },
      { name: 'org/a', branches: { master: {} } },
    ]);
    const result = freezeJobGraph(layout, { pipeline: 'check', project: 'org/a', branch: 'master' });
    expect(result.status === 'error' ? result.errors.map((e) => e.message) : []).toEqual([
      expect.stringMatching(/^Unable to modify job locked final attribute vars/),
    ]);
  });

  it('combines dependencies with !inherit and replaces them by default', () => {
    const layout = memoryLayout([
      {
        name: 'config',
        trusted: true,
        branches: {
          master: {
            'zuul.yaml': `${COMMON}
- job: {name: a, run: a.sh}
- job: {name: b, run: b.sh}
- job: {name: c, run: c.sh, dependencies: [a]}
- project:
    name: org/x
    check:
      jobs:
        - a
        - b
        - c: {dependencies: !inherit [b]}
- project:
    name: org/y
    check:
      jobs:
        - a
        - b
        - c: {dependencies: [b]}
`,
          },
        },
      },
      { name: 'org/x', branches: { master: {} } },
      { name: 'org/y', branches: { master: {} } },
    ]);
    const deps = (project: string) =>
      jobsOf(freezeJobGraph(layout, { pipeline: 'check', project, branch: 'master' }))
        .find((j) => j.name === 'c')
        ?.dependencies.map((d) => d.name);
    expect(deps('org/x')).toEqual(['a', 'b']);
    expect(deps('org/y')).toEqual(['b']);
  });

  it('does not run a job whose project-pipeline variants all miss the branch', () => {
    const layout = memoryLayout([
      {
        name: 'config',
        trusted: true,
        branches: {
          master: {
            'zuul.yaml': `${COMMON}\n- job: {name: j, run: j.sh}\n- project: {name: org/a, check: {jobs: [{j: {branches: stable}}]}}\n`,
          },
        },
      },
      { name: 'org/a', branches: { master: {}, stable: {} } },
    ]);
    expect(jobsOf(freezeJobGraph(layout, { pipeline: 'check', project: 'org/a', branch: 'master' }))).toEqual([]);
    expect(
      jobsOf(freezeJobGraph(layout, { pipeline: 'check', project: 'org/a', branch: 'stable' })).map((j) => j.name),
    ).toEqual(['j']);
  });

  it('uses pragma implied-branches and implied-branch-matchers', () => {
    const layout = memoryLayout([
      { name: 'config', trusted: true, branches: { master: { 'zuul.yaml': COMMON } } },
      {
        name: 'org/a',
        branches: {
          master: { 'zuul.yaml': '- pragma: {implied-branches: [master, feature/.*]}\n- job: {name: j, run: j.sh}\n' },
          stable: { 'zuul.yaml': '- pragma: {implied-branch-matchers: false}\n- job: {name: k, run: k.sh}\n' },
        },
      },
    ]);
    expect(layout.jobs.get('j')?.[0].branchMatcher).toEqual({
      kind: 'explicit',
      regexes: [
        { pattern: 'master', negate: false },
        { pattern: 'feature/.*', negate: false },
      ],
    });
    expect(layout.jobs.get('k')?.[0].branchMatcher).toBeUndefined();
  });

  it('caps an inherited pre-timeout at the timeout', () => {
    const layout = memoryLayout([
      {
        name: 'config',
        trusted: true,
        branches: {
          master: {
            'zuul.yaml': `${COMMON}\n- job: {name: p, pre-timeout: 500, run: p.sh}\n- job: {name: c, parent: p, timeout: 100}\n- project: {name: org/a, check: {jobs: [c]}}\n`,
          },
        },
      },
      { name: 'org/a', branches: { master: {} } },
    ]);
    const [job] = jobsOf(freezeJobGraph(layout, { pipeline: 'check', project: 'org/a', branch: 'master' }));
    expect([job.preTimeout, job.timeout]).toEqual([100, 100]);
  });
});

describe('image build jobs', () => {
  const CONFIG = `${COMMON}
- pipeline: {name: image-build, manager: independent, trigger: {}}
- image: {name: disk-a, type: zuul}
- image: {name: disk-b, type: zuul}
- section: {name: cloud, images: [disk-a, disk-b]}
- provider:
    name: cloud-1
    section: cloud
    image-format: qcow2
    images:
      - name: disk-b
        image-format: raw
- provider: {name: cloud-2, section: cloud}
- job: {name: build-a, image-build-name: disk-a}
- job: {name: build-b, image-build-name: disk-b}
- job: {name: publish}
- project: {name: config, image-build: {jobs: [build-a, build-b, publish]}}
`;
  const layout = memoryLayout([
    {
      name: 'config',
      trusted: true,
      options: '{include: [pipeline, job, project, image, flavor, label, section, provider]}',
      branches: { master: { 'zuul.yaml': CONFIG } },
    },
  ]);

  it('runs only the build jobs of the images an image-build event names (other jobs run as usual)', () => {
    const names = (imageNames?: string[]) =>
      jobsOf(freezeJobGraph(layout, { pipeline: 'image-build', project: 'config', branch: 'master', imageNames })).map(
        (job) => job.name,
      );
    expect(names()).toEqual(['build-a', 'build-b', 'publish']);
    expect(names(['disk-b'])).toEqual(['build-b', 'publish']);
    expect(names([])).toEqual(['publish']);
  });

  it('gives image build jobs zuul.image_build_name and the formats the providers want', () => {
    const frozen = toEngineLayout(layout).freezeJobGraph('image-build', 'config', 'master', undefined, {
      imageNames: ['disk-a', 'disk-b'],
    });
    expect(frozen.status === 'ok' ? frozen.jobs.map((job) => [job.name, job.vars.zuul]) : frozen).toEqual([
      ['build-a', { image_build_name: 'disk-a', image_formats: ['qcow2', 'tar'] }],
      ['build-b', { image_build_name: 'disk-b', image_formats: ['raw', 'tar'] }],
      ['publish', undefined],
    ]);
  });
});
