/**
 * The executor's side of a build's launcher nodes (docs/launcher.md#nodeset-requests): when the build starts it locks
 * them — each node must still be assigned and `ready` (or already `in-use` by an earlier run of
 * the same build) — and they become `in-use` with the executor as lock holder. The engine returns
 * them afterwards (`returnNodes`: `used`, lock released).
 */
import type { Knex } from 'knex';
import { NodeRepository } from '../store/repositories/nodes';

export class StoreNodeLocker {
  private readonly nodes: NodeRepository;

  constructor(
    private readonly knex: Knex,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.nodes = new NodeRepository(knex);
  }

  /** Lock every node for `holder`, all or none; resolves with null, or why a node cannot be used. */
  async lock(nodeIds: readonly string[], holder: string): Promise<string | null> {
    const refusal = await this.knex.transaction(async (trx) => {
      for (const id of nodeIds) {
        const node = await this.nodes.lock(id, trx);
        if (!node) {
          return `Node ${id} no longer exists`;
        }
        if (node.state === 'in-use') {
          await this.nodes.update(id, { lockHolder: holder }, this.now(), trx);
          continue;
        }
        if (node.state !== 'ready' || node.requestUuid === null) {
          return `Node ${id} is ${node.state}${node.requestUuid === null ? ' and assigned to no request' : ''}; it cannot be locked for the build`;
        }
        await this.nodes.update(id, { state: 'in-use', lockHolder: holder }, this.now(), trx, 'ready');
      }
      return null;
    });
    return refusal;
  }
}
