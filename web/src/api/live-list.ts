/**
 * A page of a list kept live by a subscription that sends the page first and then each changed
 * record (`nodeEvents`, `nodesetRequestEvents`; docs/live.md#launcher-feeds). `applyListEvent` is
 * the whole data layer, pure so it is unit-tested; `useLiveList` runs it over the subscription.
 * After a dropped connection the client subscribes again and the new page replaces the list.
 */
import { useState } from 'react';
import type { Document, RequestError } from './client';
import { useSubscription } from './hooks';

export interface ListRecord {
  uuid: string;
  databaseId: number;
}

/** One event as the subscription sends it, whatever the list. */
export type ListEvent<R> =
  | { kind: 'snapshot'; records: readonly R[]; totalCount: number }
  | { kind: 'change'; uuid: string; record: R | null; totalCount: number };

export interface LiveListState<R> {
  records: readonly R[];
  totalCount: number;
}

/**
 * The page after one event. A record the page shows is replaced or removed in place; a record
 * it does not show joins it when its id belongs between the page's first and last (or ahead of
 * them on the first page, newest first), and the page keeps `first` records at most.
 */
export function applyListEvent<R extends ListRecord>(
  state: LiveListState<R> | undefined,
  event: ListEvent<R>,
  page: { first: number; offset: number },
): LiveListState<R> {
  if (event.kind === 'snapshot') {
    return { records: event.records, totalCount: event.totalCount };
  }
  const records = state?.records ?? [];
  const at = records.findIndex((record) => record.uuid === event.uuid);
  if (event.record === null) {
    return {
      records: at < 0 ? records : [...records.slice(0, at), ...records.slice(at + 1)],
      totalCount: event.totalCount,
    };
  }
  const record = event.record;
  if (at >= 0) {
    return { records: [...records.slice(0, at), record, ...records.slice(at + 1)], totalCount: event.totalCount };
  }
  const newest = records[0]?.databaseId ?? Number.POSITIVE_INFINITY;
  const oldest = records[records.length - 1]?.databaseId ?? Number.NEGATIVE_INFINITY;
  const belongs =
    (page.offset === 0 && (record.databaseId > oldest || records.length < page.first)) ||
    (record.databaseId < newest && record.databaseId > oldest);
  if (!belongs) {
    return { records, totalCount: event.totalCount };
  }
  const next = [...records, record].sort((a, b) => b.databaseId - a.databaseId).slice(0, page.first);
  return { records: next, totalCount: event.totalCount };
}

export interface LiveList<R> {
  state: LiveListState<R> | undefined;
  error: RequestError | undefined;
}

/** Follow a live list: `toEvent` turns the subscription's data into a `ListEvent`. */
export function useLiveList<D, V, R extends ListRecord>(
  document: Document<D, V>,
  variables: V,
  page: { first: number; offset: number },
  toEvent: (data: D) => ListEvent<R>,
): LiveList<R> {
  const [state, setState] = useState<LiveListState<R> | undefined>(undefined);
  const [error, setError] = useState<RequestError | undefined>(undefined);
  useSubscription(
    document,
    variables,
    (data) => {
      setError(undefined);
      setState((previous) => applyListEvent(previous, toEvent(data), page));
    },
    { onError: setError },
  );
  return { state, error };
}
