/** `/t/{tenant}/change/{id}`: where a change is in the queues now (live), and its buildsets. */
import { useSyncExternalStore } from 'react';
import { Empty, PageTitle } from '../components/common';
import { liveStatus } from '../status/status-store';
import { ItemCard } from '../status/item-card';
import { BuildsetList } from './buildsets';

export default function ChangePage({ tenant, change }: { tenant: string; change: string }) {
  const store = liveStatus(tenant);
  const view = useSyncExternalStore(store.subscribe, store.getSnapshot);
  const number = Number.parseInt(change.split(',')[0], 10);
  const items = view.pipelines.flatMap((pipeline) =>
    pipeline.changeQueues.flatMap((queue) =>
      queue.heads
        .flat()
        .filter((item) => item.refs.some((ref) => ref.id === change || ref.id.split(',')[0] === change))
        .map((item) => ({ pipeline: pipeline.name, item })),
    ),
  );
  return (
    <section>
      <PageTitle>Change {change}</PageTitle>
      <h2>In the queues now</h2>
      {items.length === 0 ? (
        <Empty>{view.sequence < 0 ? 'Loading…' : 'The change is in no queue.'}</Empty>
      ) : (
        <ol className="chain">
          {items.map(({ pipeline, item }) => (
            <ItemCard key={`${pipeline}/${item.id}`} tenant={tenant} pipeline={pipeline} item={item} />
          ))}
        </ol>
      )}
      <h2>Buildsets</h2>
      {Number.isFinite(number) ? (
        <BuildsetList tenant={tenant} filter={{ change: [number] }} skip={0} limit={50} />
      ) : (
        <Empty>Not a change number.</Empty>
      )}
    </section>
  );
}
