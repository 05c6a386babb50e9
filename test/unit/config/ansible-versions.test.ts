/**
 * `ansible-version` and `default-ansible-version` name a version of the reference's supported
 * list, or the loader refuses them with the reference's words
 * (docs/project-configuration.md#differences-from-the-reference-and-what-is-not-supported-yet).
 */
import { parseTenantFile } from '../../../src/config/tenant-file';
import { memoryLayout } from '../../helpers/memory-layout';

const BASE = `
- pipeline: {name: check, manager: independent, trigger: {}}
- job: {name: base, parent: null, run: base.sh}
`;

describe('Ansible versions', () => {
  it('a job naming an unknown version is dropped with an error; supported ones load, numbers or strings', () => {
    const jobs = `
- job: {name: old, ansible-version: 8}
- job: {name: nine, ansible-version: 9}
- job: {name: eleven, ansible-version: '11'}
`;
    const layout = memoryLayout([
      { name: 'config', trusted: true, branches: { master: { 'zuul.yaml': BASE } } },
      { name: 'org/jobs', branches: { master: { 'zuul.yaml': jobs } } },
    ]);
    expect(layout.errors.map((e) => [e.severity, e.name, e.shortError])).toEqual([
      ['error', 'Unknown', "Requested ansible version '8' is unknown. Supported versions are 9, 11"],
    ]);
    expect(layout.jobs.has('old')).toBe(false);
    expect(layout.jobs.get('nine')?.[0].attributes.ansibleVersion).toBe('9');
    expect(layout.jobs.get('eleven')?.[0].attributes.ansibleVersion).toBe('11');
  });

  it("a tenant's unknown default-ansible-version is a problem of that tenant", () => {
    const tenantFile = (version: string) =>
      `- tenant:\n    name: t\n    default-ansible-version: ${version}\n    source: {}\n`;
    const bad = parseTenantFile(tenantFile('2.9'), {});
    expect(bad.problems).toEqual([
      { tenant: 't', message: "Requested ansible version '2.9' is unknown. Supported versions are 9, 11", line: 3 },
    ]);
    const good = parseTenantFile(tenantFile('11'), {});
    expect(good.problems).toEqual([]);
    expect(good.abide.tenants[0].defaultAnsibleVersion).toBe('11');
  });
});
