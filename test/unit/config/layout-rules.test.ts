/** Load-time rules checked on small in-memory layouts. */
import { memoryLayout } from '../../helpers/memory-layout';

const BASE = `
- pipeline: {name: check, manager: independent, trigger: {}}
- job: {name: base, parent: null, run: base.sh}
`;

function errorsOf(files: string, tenantOptions = ''): Array<[string, string]> {
  const layout = memoryLayout(
    [{ name: 'config', trusted: true, branches: { master: { 'zuul.yaml': `${BASE}${files}` } } }],
    tenantOptions,
  );
  return layout.errors.map((e) => [e.name, e.shortError]);
}

describe('layout rules', () => {
  it('requires defined label objects when use-nodepool is false', () => {
    const files = '- job: {name: j, nodeset: {nodes: [{name: n, label: missing}]}}\n';
    expect(errorsOf(files, '    use-nodepool: false\n')).toEqual([
      ['Label Not Found', 'The label "missing" was not found.'],
    ]);
    expect(errorsOf(files)).toEqual([]);
  });

  it('checks allowed-labels as prefix regexes before disallowed-labels', () => {
    const files =
      '- job: {name: ok, nodeset: {nodes: [{name: n, label: ubuntu-jammy}]}}\n- job: {name: bad, nodeset: {nodes: [{name: n, label: centos}]}}\n';
    expect(errorsOf(files, "    allowed-labels: ['ubuntu']\n")).toEqual([
      ['Label Forbidden', 'Label named "centos" is not part of the allowed labels (ubuntu) for this tenant.'],
    ]);
  });

  it('ignores identical copies of a nodeset on another branch but rejects different ones', () => {
    const nodeset = (label: string) => `- nodeset: {name: ns, nodes: [{name: n, label: ${label}}]}\n`;
    const layout = memoryLayout([
      { name: 'config', trusted: true, branches: { master: { 'zuul.yaml': BASE } } },
      { name: 'org/same', branches: { master: { 'zuul.yaml': nodeset('a') }, stable: { 'zuul.yaml': nodeset('a') } } },
      {
        name: 'org/diff',
        branches: {
          master: { 'zuul.yaml': nodeset('b').replace('ns', 'other') },
          stable: { 'zuul.yaml': nodeset('c').replace('ns', 'other') },
        },
      },
    ]);
    expect(layout.errors.map((e) => [e.sourceContext?.projectName, e.sourceContext?.branch, e.shortError])).toEqual([
      ['org/diff', 'stable', 'Nodeset other does not match existing definition in branch master'],
    ]);
    expect(layout.nodesets.get('ns')?.sourceContext?.branch).toBe('master');
  });

  it('lets a project shadow the jobs of a project listed before it', () => {
    const projects = (options?: string) =>
      memoryLayout([
        {
          name: 'config',
          trusted: true,
          branches: { master: { 'zuul.yaml': `${BASE}- job: {name: shared, run: config.sh}\n` } },
        },
        { name: 'org/a', options, branches: { master: { 'zuul.yaml': '- job: {name: shared, run: a.sh}\n' } } },
      ]);
    expect(projects().errors.map((e) => e.shortError)).toEqual([
      'Job shared in org/a is not permitted to shadow job shared in config',
    ]);
    const shadowed = projects('{shadow: config}');
    expect(shadowed.errors).toEqual([]);
    expect(shadowed.jobs.get('shared')?.map((v) => v.sourceContext.projectName)).toEqual(['config']);
  });

  it('lets an untrusted project configure another one with configure-projects, never a config project', () => {
    const layout = memoryLayout([
      { name: 'config', trusted: true, branches: { master: { 'zuul.yaml': BASE } } },
      { name: 'org/b', branches: { master: {} } },
      {
        name: 'org/c',
        options: "{configure-projects: ['org/.*']}",
        branches: {
          master: {
            'zuul.yaml':
              '- project: {name: org/b, check: {jobs: [base]}}\n- project: {name: config, check: {jobs: [base]}}\n',
          },
        },
      },
    ]);
    expect(layout.errors.map((e) => [e.name, e.shortError])).toEqual([
      ['Project Forbidden', 'Unable to modify project config'],
    ]);
    expect(layout.projectConfigs.get('review.example.com/org/b')?.map((s) => s.sourceContext.projectName)).toEqual([
      'org/c',
    ]);
  });
});
