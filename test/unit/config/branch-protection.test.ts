/**
 * Which branches of a project the loader reads under the branch protection options
 * (`exclude-unprotected-branches`, `exclude-locked-branches`; tenant-wide and per project, the
 * project's setting winning), on a connection that reports protection and locks and on one that
 * cannot (docs/project-configuration.md#the-tenant-file).
 */
import { parseTenantFile } from '../../../src/config/tenant-file';
import { readTenantProjects } from '../../../src/config/tenant-loader';
import { GitConnection } from '../../../src/sources/git-connection';
import { createGitFixture, type GitFixture } from '../../helpers/git-fixtures';

const TENANT = `
- tenant:
    name: t
    exclude-locked-branches: true
    source:
      hub:
        untrusted-projects:
          - org/app
          - org/lib:
              exclude-locked-branches: false
          - org/both:
              exclude-unprotected-branches: true
      plain:
        untrusted-projects:
          - org/plain
`;

describe('branch protection options in the loader', () => {
  let fixture: GitFixture;

  beforeAll(async () => {
    fixture = createGitFixture();
    for (const project of ['org/app', 'org/lib', 'org/both', 'org/plain']) {
      const base = await fixture.createProject(project, { '.zuul.yaml': '- job:\n    name: j\n' });
      for (const branch of ['stable', 'feature', 'release']) {
        await fixture.commit(project, { parent: base, files: { [branch]: 'x\n' }, ref: `refs/heads/${branch}` });
      }
    }
  });

  afterAll(() => fixture?.cleanup());

  it('leaves out locked branches, and unprotected ones where excluded, only where the connection reports them', async () => {
    const asked: string[] = [];
    const hub = new GitConnection('hub', {
      driver: 'git',
      baseurl: fixture.baseDir,
      pollInterval: 60,
      protectedBranches: async (project) => {
        asked.push(`protected ${project}`);
        return ['release', 'stable', 'master'];
      },
      lockedBranches: async (project) => {
        asked.push(`locked ${project}`);
        return ['stable'];
      },
    });
    const plain = new GitConnection('plain', { driver: 'git', baseurl: fixture.baseDir, pollInterval: 60 });
    const { abide, problems } = parseTenantFile(TENANT, { hub: { driver: 'github' }, plain: { driver: 'git' } });
    expect(problems).toEqual([]);
    const tenant = abide.tenants[0];
    expect(tenant.excludeLockedBranches).toBe(true);
    const { projects, errors } = await readTenantProjects(tenant, {
      drivers: { hub: 'github', plain: 'git' },
      git: new Map([
        ['hub', hub],
        ['plain', plain],
      ]),
    });
    expect(errors).toEqual([]);
    const byName = new Map(projects.map((p) => [p.name, p]));
    // The tenant's exclude-locked-branches: stable is locked.
    expect(byName.get('org/app')?.branches).toEqual(['master', 'feature', 'release']);
    expect(byName.get('org/app')?.protectedBranches).toBeUndefined();
    // The project's own setting wins over the tenant's.
    expect(byName.get('org/lib')?.branches).toEqual(['master', 'feature', 'release', 'stable']);
    // Both options: protected and not locked; the protected branches are kept for the event filter.
    expect(byName.get('org/both')?.branches).toEqual(['master', 'release']);
    expect(byName.get('org/both')?.protectedBranches).toEqual(['master', 'release', 'stable']);
    // A connection that cannot lock branches loads every branch.
    expect(byName.get('org/plain')?.branches).toEqual(['master', 'feature', 'release', 'stable']);
    // Locks are asked only where they are excluded.
    expect(asked.sort()).toEqual(['locked org/app', 'locked org/both', 'protected org/both']);
  });
});
