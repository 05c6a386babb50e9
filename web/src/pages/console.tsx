/**
 * A build's console: the `consoleLog` subscription replays the log and, while the build runs,
 * streams new lines (docs/live.md). Lines carry a sequence number; after a reconnect the stream
 * starts again and lines already shown are skipped, so nothing is shown twice or lost.
 */
import { memo, useEffect, useRef, useState } from 'react';
import { subscribe, type RequestError } from '../api/client';
import { describeError } from '../api/errors';
import { BuildConsoleDocument } from '../generated/graphql';

interface Line {
  seq: number;
  text: string;
}

const BLOCK = 500;
/** Lines kept in the page; older ones are dropped from view (the full log stays in job-output.txt). */
const MAX_LINES = 50_000;

/**
 * `status` is the build's status: the stream starts again when it changes (a queued build's log
 * starts when it runs). "Follow" keeps the end of the log in view inside the console's own box
 * (never by scrolling the page); it starts on for a running build, off for a finished one.
 */
export function Console({ tenant, uuid, status }: { tenant: string; uuid: string; status: string }) {
  const running = status !== 'COMPLETED';
  const [lines, setLines] = useState<Line[]>([]);
  const [state, setState] = useState<'streaming' | 'ended' | 'error'>('streaming');
  const [error, setError] = useState<RequestError | null>(null);
  const [follow, setFollow] = useState(running);
  const box = useRef<HTMLPreElement>(null);
  const last = useRef(0);
  useEffect(() => {
    setState('streaming');
    setError(null);
    return subscribe(
      BuildConsoleDocument,
      { tenant, uuid, offset: last.current },
      {
        next: (data) => {
          const fresh = data.consoleLog.lines.filter((line) => line.seq > last.current);
          if (fresh.length === 0) {
            return;
          }
          last.current = fresh[fresh.length - 1].seq;
          setLines((current) => {
            const next = current.concat(fresh);
            return next.length > MAX_LINES ? next.slice(next.length - MAX_LINES) : next;
          });
        },
        error: (err) => {
          setError(err);
          setState('error');
        },
        complete: () => setState('ended'),
      },
    );
  }, [tenant, uuid, status]);
  useEffect(() => {
    if (follow && box.current !== null) {
      box.current.scrollTop = box.current.scrollHeight;
    }
  }, [lines, follow]);
  const blocks: Line[][] = [];
  for (let i = 0; i < lines.length; i += BLOCK) {
    blocks.push(lines.slice(i, i + BLOCK));
  }
  return (
    <section className="console" aria-labelledby="console-title">
      <header className="console-header">
        <h2 id="console-title">Console</h2>
        <span className="muted small" aria-live="polite">
          {state === 'streaming' ? (running ? 'live' : 'loading') : state === 'ended' ? `${lines.length} lines` : ''}
        </span>
        <label className="checkbox small">
          <input type="checkbox" checked={follow} onChange={(e) => setFollow(e.target.checked)} /> Follow
        </label>
      </header>
      {error !== null && <p className="error-box">{describeError(error)}</p>}
      <pre className="console-text" tabIndex={0} aria-label="Console output" ref={box}>
        {blocks.map((block) => (
          <ConsoleBlock key={block[0].seq} lines={block} />
        ))}
      </pre>
    </section>
  );
}

/** A fixed group of lines: once full it never re-renders while new lines arrive. */
const ConsoleBlock = memo(
  function ConsoleBlock({ lines }: { lines: Line[] }) {
    return <>{lines.map((line) => `${line.text}\n`).join('')}</>;
  },
  (a, b) => a.lines.length === b.lines.length && a.lines[0]?.seq === b.lines[0]?.seq,
);
