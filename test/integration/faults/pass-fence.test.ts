/**
 * A scheduler pass's first statement (docs/operations.md#leadership-model): it proves the lead
 * and, only then, locks the tenant's `tenant_state` row and returns its event-queue flags, in one
 * statement; a lease that changed hands throws with nothing of the tenant read or locked.
 */
import { LeadershipLostError, TenantLeadership } from '../../../src/engine/scheduler/leadership';
import { backends, createTestDatabase, type TestDatabase } from '../../helpers/database';

const TTL_MS = 15_000;

describe.each(backends())("a pass's fence on %s", (backend) => {
  let db: TestDatabase;
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
    const leadership = new TenantLeadership(db, tenant, { ttlMs: TTL_MS });
    expect(await leadership.acquire()).toBe(true);
    return leadership;
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
