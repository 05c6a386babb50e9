/** Re-enqueue a buildset's change or ref into its pipeline (tenant admins only). */
import { ActionButton } from './action-button';
import { runAction } from './run-action';
import { useIsAdmin } from './use-admin';
import { EnqueueDocument } from '../generated/graphql';

export function ReenqueueButton({
  tenant,
  pipeline,
  refValue,
}: {
  tenant: string;
  pipeline: string;
  refValue: {
    project: string;
    change?: number | null;
    patchset?: string | null;
    ref?: string | null;
    oldrev?: string | null;
    newrev?: string | null;
  };
}) {
  const admin = useIsAdmin(tenant);
  if (!admin) {
    return null;
  }
  const change =
    refValue.change !== null && refValue.change !== undefined
      ? `${refValue.change},${refValue.patchset ?? '1'}`
      : undefined;
  return (
    <ActionButton
      label="Re-enqueue"
      run={() =>
        runAction(
          EnqueueDocument,
          {
            input: change
              ? { tenant, pipeline, project: refValue.project, change }
              : {
                  tenant,
                  pipeline,
                  project: refValue.project,
                  ref: refValue.ref ?? undefined,
                  oldrev: refValue.oldrev ?? undefined,
                  newrev: refValue.newrev ?? undefined,
                },
          },
          (data) => data.enqueue,
          `Re-enqueued into ${pipeline}.`,
        )
      }
    />
  );
}
