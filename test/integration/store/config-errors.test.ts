/** ConfigErrorRepository: atomic replacement, de-duplication, layout order and filters. */
import { ConfigErrorRepository, type NewConfigError } from '../../../src/store/repositories/config-errors';
import { backends, createTestDatabase, type TestDatabase } from '../../helpers/database';

function error(keyHash: string, overrides: Partial<NewConfigError> = {}): NewConfigError {
  return {
    keyHash,
    project: 'org/a',
    projectCanonicalName: 'review.example.com/org/a',
    connectionName: 'gerrit',
    branch: 'master',
    path: 'zuul.yaml',
    line: 3,
    severity: 'error',
    name: 'Unknown',
    error: `full ${keyHash}`,
    shortError: `short ${keyHash}`,
    ...overrides,
  };
}

describe.each(backends())('ConfigErrorRepository (%s)', (backend) => {
  let db: TestDatabase;
  let repo: ConfigErrorRepository;

  beforeAll(async () => {
    db = await createTestDatabase({ backend });
    repo = new ConfigErrorRepository(db.knex);
  });

  afterAll(() => db.destroy());

  it('replaces a tenant set atomically, de-duplicating by key hash and keeping layout order', async () => {
    expect(
      await repo.replace('t1', [
        error('c'),
        error('a'),
        error('c', { shortError: 'dup' }),
        error('b', {
          project: 'org/b',
          projectCanonicalName: 'review.example.com/org/b',
          severity: 'warning',
          name: 'Regex Deprecation',
        }),
      ]),
    ).toEqual({ changed: true });
    await repo.replace('t2', [error('z')]);
    expect((await repo.list('t1', { limit: 50, offset: 0 })).map((e) => [e.keyHash, e.shortError])).toEqual([
      ['c', 'short c'],
      ['a', 'short a'],
      ['b', 'short b'],
    ]);
    expect(
      await repo.replace('t1', [
        error('c'),
        error('a'),
        error('b', {
          project: 'org/b',
          projectCanonicalName: 'review.example.com/org/b',
          severity: 'warning',
          name: 'Regex Deprecation',
        }),
      ]),
    ).toEqual({ changed: false });
    expect(
      await repo.replace('t1', [
        error('b', {
          project: 'org/b',
          projectCanonicalName: 'review.example.com/org/b',
          severity: 'warning',
          name: 'Regex Deprecation',
        }),
        error('d'),
      ]),
    ).toEqual({ changed: true });
    expect((await repo.list('t1', { limit: 50, offset: 0 })).map((e) => e.keyHash)).toEqual(['b', 'd']);
    expect(await repo.count('t2')).toBe(1);
  });

  it('filters by project, branch, severity and name before limit/offset', async () => {
    await repo.replace('t3', [
      error('1'),
      error('2', { branch: 'stable' }),
      error('3', {
        project: 'org/b',
        projectCanonicalName: 'review.example.com/org/b',
        severity: 'warning',
        name: 'Regex Deprecation',
      }),
      error('4'),
      error('5', {
        project: null,
        projectCanonicalName: null,
        connectionName: null,
        branch: null,
        path: null,
        line: null,
      }),
    ]);
    const keys = async (filter: Parameters<ConfigErrorRepository['list']>[1]) =>
      (await repo.list('t3', filter)).map((e) => e.keyHash);
    expect(await keys({ project: 'org/a', limit: 50, offset: 0 })).toEqual(['1', '2', '4']);
    expect(await keys({ project: 'org/a', branch: 'master', limit: 50, offset: 0 })).toEqual(['1', '4']);
    expect(await keys({ severity: 'warning', limit: 50, offset: 0 })).toEqual(['3']);
    expect(await keys({ name: 'Unknown', limit: 2, offset: 1 })).toEqual(['2', '4']);
    expect(await repo.count('t3', { project: 'org/a' })).toBe(3);
    const [record] = await repo.list('t3', { severity: 'warning', limit: 1, offset: 0 });
    expect(record).toMatchObject({
      projectCanonicalName: 'review.example.com/org/b',
      connectionName: 'gerrit',
      path: 'zuul.yaml',
      line: 3,
      error: 'full 3',
    });
    expect(record.firstSeen).toBeInstanceOf(Date);
  });

  it('drops tenants that no longer exist', async () => {
    await repo.deleteTenantsExcept(['t1']);
    expect(await repo.count('t2')).toBe(0);
    expect(await repo.count('t1')).toBe(2);
  });
});
