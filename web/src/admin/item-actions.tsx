/** Dequeue and promote for one queue item (tenant admins only). */
import { ActionButton } from './action-button';
import { runAction } from './run-action';
import { useIsAdmin } from './use-admin';
import { DequeueDocument, PromoteDocument } from '../generated/graphql';
import type { ItemStatus } from '../status/status-store';

export function ItemActions({ tenant, pipeline, item }: { tenant: string; pipeline: string; item: ItemStatus }) {
  const admin = useIsAdmin(tenant);
  const ref = item.refs[0];
  if (!admin || ref === undefined || !item.live) {
    return null;
  }
  const isChange = /^\d+,\S+$/.test(ref.id);
  return (
    <span className="item-actions">
      <ActionButton
        label="Dequeue"
        className="small-button"
        run={() =>
          runAction(
            DequeueDocument,
            {
              input: isChange
                ? { tenant, pipeline, project: ref.project, change: ref.id }
                : { tenant, pipeline, project: ref.project, ref: ref.ref ?? undefined },
            },
            (data) => data.dequeue,
            `Dequeue of ${ref.id} requested.`,
          )
        }
      />
      {isChange && (
        <ActionButton
          label="Promote"
          className="small-button"
          run={() =>
            runAction(
              PromoteDocument,
              { input: { tenant, pipeline, changes: [ref.id] } },
              (data) => data.promote,
              `Promotion of ${ref.id} requested.`,
            )
          }
        />
      )}
    </span>
  );
}
