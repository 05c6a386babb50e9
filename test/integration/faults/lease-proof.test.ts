/**
 * The lead proven before a merge into a branch (docs/operations.md#leadership-model): a proof
 * made within the last third of the lease stands, so a merge is not held up by the lease row a
 * pass keeps locked until its commit; an older one is made again in the database, and a lease
 * that changed hands then stops the merge.
 */
import { TenantLeadership, LeadershipLostError } from '../../../src/engine/scheduler/leadership';
import { backends, createTestDatabase, type TestDatabase } from '../../helpers/database';

const TTL_MS = 15_000;

describe.each(backends())('the lead proven before a merge on %s', (backend) => {
  let db: TestDatabase;
  let now = 0;
  let statements = 0;

  beforeAll(async () => {
    db = await createTestDatabase({ backend });
    db.knex.on('query', () => {
      statements += 1;
    });
  });

  afterAll(async () => {
    await db.destroy();
  });

  async function leader(tenant: string): Promise<TenantLeadership> {
    const leadership = new TenantLeadership(db, tenant, { ttlMs: TTL_MS, monotonic: () => now });
    expect(await leadership.acquire()).toBe(true);
    return leadership;
  }

  it('a recent proof stands: no statement; an older one is made again, and fails once the lease changed hands', async () => {
    const leadership = await leader(`proof-${backend}-a`);
    now += TTL_MS / 3 - 1;
    const before = statements;
    await leadership.proveRecent(db.knex);
    expect(statements).toBe(before);
    now += 2;
    await leadership.proveRecent(db.knex);
    expect(statements).toBe(before + 1);
    // Another process takes the lease (as after this one's ran out while it could not reach the database).
    await db
      .knex('scheduler_leases')
      .where({ tenant: `proof-${backend}-a` })
      .update({ holder: 'other', epoch: 99 });
    now += TTL_MS / 3;
    await expect(leadership.proveRecent(db.knex)).rejects.toBeInstanceOf(LeadershipLostError);
    expect(leadership.isHeld()).toBe(false);
  });

  if (backend === 'postgres') {
    it("is not held up by a pass's transaction, which keeps the lease row locked until its commit", async () => {
      const leadership = await leader(`proof-${backend}-b`);
      await db.knex.transaction(async (trx) => {
        await leadership.fence(trx); // a pass's first statement: locks the lease row until the commit
        // The proof before a merge, while the pass is open (in the database it would wait for the commit).
        let timer: NodeJS.Timeout | undefined;
        const heldUp = new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error('the proof waited for the pass')), 10_000);
        });
        try {
          await Promise.race([leadership.proveRecent(db.knex), heldUp]);
        } finally {
          clearTimeout(timer);
        }
      });
    });
  }
});
