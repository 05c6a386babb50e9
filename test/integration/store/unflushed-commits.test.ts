/**
 * Commits that do not wait for their WAL (src/store/unflushed-commit.ts): a work claim and the
 * completion of work safe to do again (speculative merges, branch look-ups, merges into branches)
 * relax their own transaction's commit; a report's completion, seen outside, does not. Each is
 * run here inside a transaction of the test, whose setting is then read back: an autocommit
 * statement's transaction is the statement itself.
 */
import type { Knex } from 'knex';
import type { EngineEvent } from '../../../src/model/engine-events';
import {
  EngineWorkRepository,
  type EngineWorkKind,
  type EngineWorkRecord,
} from '../../../src/store/repositories/engine-work';
import { nextTenant } from '../../engine/harness';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';

const NOW = new Date('2026-06-01T00:00:00Z');

const EVENT: EngineEvent = {
  type: 'merge-completed',
  work: 0,
  mode: 'speculative',
  pipeline: 'gate',
  buildsetUuid: 'b',
  merged: true,
  error: null,
  files: [],
  repoState: {},
  changes: [],
};

describe('commits that do not wait for their WAL', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase();
  });

  afterAll(async () => {
    await db.destroy();
  });

  /** `synchronous_commit` of a transaction after `write` ran in it (rolled back). */
  async function settingAfter(write: (repo: EngineWorkRepository, trx: Knex.Transaction) => Promise<unknown>) {
    const trx = await db.knex.transaction();
    trx.executionPromise.catch(() => undefined); // rejected by the rollback below
    try {
      await write(new EngineWorkRepository(trx), trx);
      const { rows } = (await trx.raw('SHOW synchronous_commit')) as { rows: Array<{ synchronous_commit: string }> };
      return rows[0].synchronous_commit;
    } finally {
      await trx.rollback();
    }
  }

  /** New rows running under epoch 1 as a claim leaves them, without the claim (it would relax the transaction). */
  async function running(repo: EngineWorkRepository, trx: Knex, tenant: string, kinds: EngineWorkKind[]) {
    const work = kinds.map((kind, index) => ({ kind, payload: { buildsetUuid: `b${index}` } }));
    await repo.create(tenant, work, NOW, trx);
    await trx('engine_work').where({ tenant }).update({ state: 'running', epoch: 1 });
    return repo.all(tenant);
  }

  async function complete(repo: EngineWorkRepository, records: EngineWorkRecord[]): Promise<number> {
    const completions = records.map((record) => ({ record, outcome: 'done', event: { ...EVENT, work: record.id } }));
    return repo.completeMany(completions, 1, NOW);
  }

  it('relaxes a claim', async () => {
    const tenant = nextTenant();
    const setting = await settingAfter(async (repo, trx) => {
      await repo.create(tenant, [{ kind: 'report', payload: { buildsetUuid: 'b' } }], NOW, trx);
      expect(await repo.claim(tenant, 1, NOW, 10)).toHaveLength(1);
    });
    expect(setting).toBe('off');
  });

  it('relaxes the completion of work safe to do again', async () => {
    for (const kind of ['speculative-merge', 'branch-merge', 'tag-branches'] as const) {
      const tenant = nextTenant();
      const setting = await settingAfter(async (repo, trx) => {
        expect(await complete(repo, await running(repo, trx, tenant, [kind]))).toBe(1);
      });
      expect([kind, setting]).toEqual([kind, 'off']);
    }
  });

  it('flushes the completion of a report, and of a batch holding one', async () => {
    for (const kinds of [['report'], ['speculative-merge', 'report']] as EngineWorkKind[][]) {
      const tenant = nextTenant();
      const setting = await settingAfter(async (repo, trx) => {
        expect(await complete(repo, await running(repo, trx, tenant, kinds))).toBe(kinds.length);
      });
      expect([kinds, setting]).toEqual([kinds, 'on']);
    }
  });
});
