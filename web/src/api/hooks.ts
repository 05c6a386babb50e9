/** React hooks over the client: a query's state, a subscription's events, the connection state. */
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { onConnectionChange, request, RequestError, subscribe, type Document } from './client';
import { currentToken, onTokenChange } from './auth';

export interface QueryState<R> {
  data: R | undefined;
  error: RequestError | undefined;
  loading: boolean;
  /** The variables (as JSON) `data` was read with: while a new reading is under way, the last one stays. */
  dataKey: string | undefined;
  /** Run the query again (after a mutation, or a live event that says the data changed). */
  refetch(): void;
}

/** Run `document` whenever the variables (compared as JSON) or the signed-in token change. */
export function useQuery<R, V>(document: Document<R, V>, variables: V, skip = false): QueryState<R> {
  const key = JSON.stringify(variables);
  const token = useToken();
  const [generation, setGeneration] = useState(0);
  const [state, setState] = useState<{ data?: R; dataKey?: string; error?: RequestError; loading: boolean }>({
    loading: !skip,
  });
  useEffect(() => {
    if (skip) {
      return;
    }
    const controller = new AbortController();
    setState((previous) => ({ data: previous.data, dataKey: previous.dataKey, loading: true }));
    request(document, JSON.parse(key) as V, controller.signal).then(
      (data) => setState({ data, dataKey: key, loading: false }),
      (err: unknown) => {
        if (!controller.signal.aborted) {
          setState({ error: err instanceof RequestError ? err : new RequestError(String(err)), loading: false });
        }
      },
    );
    return () => controller.abort();
  }, [document, key, token, generation, skip]);
  return {
    data: state.data,
    dataKey: state.dataKey,
    error: state.error,
    loading: state.loading,
    refetch: () => setGeneration((g) => g + 1),
  };
}

/** Call `onData` for each event of a subscription while the component is mounted (and the variables stay). */
export function useSubscription<R, V>(
  document: Document<R, V>,
  variables: V,
  onData: (data: R) => void,
  options: { skip?: boolean; onError?: (error: RequestError) => void } = {},
): void {
  const key = JSON.stringify(variables);
  const handlers = useRef({ onData, onError: options.onError });
  handlers.current = { onData, onError: options.onError };
  useEffect(() => {
    if (options.skip) {
      return;
    }
    return subscribe(document, JSON.parse(key) as V, {
      next: (data) => handlers.current.onData(data),
      error: (error) => handlers.current.onError?.(error),
    });
  }, [document, key, options.skip]);
}

let connected = false;
onConnectionChange((up) => {
  connected = up;
});

/** Whether the live connection is up (false before the first subscription opens it). */
export function useLiveConnection(): boolean {
  return useSyncExternalStore(
    (notify) =>
      onConnectionChange(() => {
        notify();
      }),
    () => connected,
  );
}

/** The signed-in token (re-renders on sign-in and sign-out). */
export function useToken(): string | null {
  return useSyncExternalStore(onTokenChange, currentToken);
}
