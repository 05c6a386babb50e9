/**
 * Proofs of the lead (docs/operations.md#leadership-model). Before a merge into a branch: a proof
 * made within the last third of the lease stands, so a merge is not held up by the lease row a
 * pass keeps locked until its commit; an older one is made again in the database, and a lease
 * that changed hands then stops the merge. A pass's first statement: it proves the lead and, only
 * then, locks the tenant's `tenant_state` row and returns its event-queue flags, in one
 * statement; a lease that changed hands throws with nothing of the tenant read or locked.
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

  /** Another holder takes the lease (as after this one's ran out). */
  async function takeOver(tenant: string): Promise<void> {
    await db.knex('scheduler_leases').where({ tenant }).update({ holder: 'other', epoch: 99 });
  }

  it("returns the tenant's event-queue flags in the statement that proves the lead", async () => {
    const tenant = `fence-${backend}-a`;
    const leadership = await leader(tenant);
    const before = await db.knex.transaction(async (trx) => {
      const from = statements;
      const queues = await leadership.fencePass(trx);
      return { queues, statements: statements - from };
    });
    // No tenant_state row yet: the queues run.
    expect(before).toEqual({
      queues: { triggerQueueDiscarding: false, triggerQueuePaused: false, resultQueuePaused: false, reason: null },
      statements: 1,
    });
    await db.knex('tenant_state').insert({
      tenant,
      trigger_queue_paused: true,
      result_queue_paused: false,
      trigger_queue_discarding: true,
      reason: 'maintenance',
      updated: new Date(),
    });
    const paused = await db.knex.transaction((trx) => leadership.fencePass(trx));
    expect(paused).toEqual({
      triggerQueueDiscarding: true,
      triggerQueuePaused: true,
      resultQueuePaused: false,
      reason: 'maintenance',
    });
    await takeOver(tenant);
    await expect(db.knex.transaction((trx) => leadership.fencePass(trx))).rejects.toBeInstanceOf(LeadershipLostError);
    expect(leadership.isHeld()).toBe(false);
  });

  if (backend === 'postgres') {
    /** True when another session finds the tenant's row locked. */
    async function locked(tenant: string): Promise<boolean> {
      return db.knex.transaction(async (other) => {
        try {
          await other.raw('SELECT 1 FROM tenant_state WHERE tenant = ? FOR UPDATE NOWAIT', [tenant]);
          return false;
        } catch (error) {
          if ((error as { code?: string }).code === '55P03') {
            return true; // lock_not_available
          }
          throw error;
        }
      });
    }

    it("locks the tenant's row until the commit once the lead is proven, and nothing when it is not", async () => {
      const tenant = `fence-${backend}-b`;
      const leadership = await leader(tenant);
      await db.knex('tenant_state').insert({ tenant, updated: new Date() });
      await db.knex.transaction(async (trx) => {
        await leadership.fencePass(trx);
        expect(await locked(tenant)).toBe(true);
      });
      expect(await locked(tenant)).toBe(false);
      await takeOver(tenant);
      await db.knex.transaction(async (trx) => {
        await expect(leadership.fencePass(trx)).rejects.toBeInstanceOf(LeadershipLostError);
        expect(await locked(tenant)).toBe(false);
      });
    });
  }
});
