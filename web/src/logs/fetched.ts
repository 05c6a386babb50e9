/** A file read from the log server by the build page (manifest, text files, job-output.json). */
import { useEffect, useRef, useState } from 'react';

export type Loaded<T> = { value: T } | { error: string; status?: number } | undefined;

class HttpError extends Error {
  constructor(readonly status: number) {
    super(`the log server answered HTTP ${status}`);
  }
}

/**
 * GET `url` and turn the answer into T; errors become words (with the HTTP status when the server
 * answered). `version` reads the file again when it changes (a running build's files grow).
 */
export function useFetched<T>(
  url: string | null,
  read: (response: Response) => Promise<T>,
  version: string | number = 0,
): Loaded<T> {
  const [state, setState] = useState<Loaded<T>>(undefined);
  const shown = useRef<string | null>(null);
  useEffect(() => {
    if (url !== shown.current) {
      // Another file: show it loading. A new version of the same file replaces it when read.
      shown.current = url;
      setState(undefined);
    }
    if (url === null) {
      return;
    }
    const controller = new AbortController();
    fetch(url, { signal: controller.signal })
      .then(async (response) => {
        if (!response.ok) {
          throw new HttpError(response.status);
        }
        return read(response);
      })
      .then(
        (value) => setState({ value }),
        (err: unknown) => {
          if (!controller.signal.aborted) {
            setState({
              error: err instanceof Error ? err.message : String(err),
              status: err instanceof HttpError ? err.status : undefined,
            });
          }
        },
      );
    return () => controller.abort();
    // `read` is a stable module-level function at every call site.
  }, [url, version]);
  return state;
}
