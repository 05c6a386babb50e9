/**
 * The build page's views of `job-output.json` (docs/dashboard.md#task-summary-and-console): the
 * task summary (per host: ok, changed, failed, and each failed task with its message and output)
 * and the play/task console (every playbook, play and task with its hosts' results).
 */
import { ErrorBox, Loading } from '../components/common';
import { formatDuration } from '../format';
import { useFetched, type Loaded } from './fetched';
import { parseJobOutput, phaseLabel, secondsBetween, summarize, type HostResult, type PlaybookRun } from './job-output';

async function readJobOutput(response: Response): Promise<PlaybookRun[]> {
  const playbooks = parseJobOutput(await response.json());
  if (playbooks instanceof Error) {
    throw playbooks;
  }
  return playbooks;
}

/**
 * The build's `job-output.json` from its log folder, read again when `version` changes (the
 * executor rewrites it as each phase ends). Sluice writes no `.gz` copy (docs/logs.md), so the
 * page asks for the plain file only.
 */
export function useJobOutput(logBase: string | null, version: string): Loaded<PlaybookRun[]> {
  return useFetched(logBase === null ? null : `${logBase}job-output.json`, readJobOutput, version);
}

/** Words for a job-output.json that could not be read. */
function Unavailable({ output, running }: { output: Loaded<PlaybookRun[]>; running: boolean }) {
  if (output === undefined) {
    return <Loading what="job-output.json" />;
  }
  if ('value' in output) {
    return null;
  }
  if (output.status === 404) {
    return (
      <p className="empty">{running ? 'No phase of the build has ended yet.' : 'The build left no job-output.json.'}</p>
    );
  }
  return <ErrorBox error={`job-output.json cannot be read: ${output.error}`} />;
}

function Output({ label, lines }: { label: string; lines: string[] }) {
  if (lines.length === 0) {
    return null;
  }
  return (
    <>
      <p className="output-label">{label}</p>
      <pre className="task-output" tabIndex={0} aria-label={label}>
        {lines.join('\n')}
      </pre>
    </>
  );
}

function ResultDetails({ result }: { result: HostResult }) {
  return (
    <>
      {result.msg !== '' && <p className="task-msg">{result.msg}</p>}
      {result.cmd !== null && result.cmd !== '' && (
        <p className="small">
          Command <code>{result.cmd}</code>
          {result.rc !== null && <> · exit code {result.rc}</>}
        </p>
      )}
      <Output label="Output" lines={result.stdout} />
      <Output label="Error output" lines={result.stderr} />
    </>
  );
}

export function TaskSummary({ output, running }: { output: Loaded<PlaybookRun[]>; running: boolean }) {
  const hosts = output !== undefined && 'value' in output ? summarize(output.value) : [];
  return (
    <section className="task-summary" aria-labelledby="task-summary-title">
      <h2 id="task-summary-title">Task summary</h2>
      <Unavailable output={output} running={running} />
      {output !== undefined && 'value' in output && hosts.length === 0 && <p className="empty">No task ran.</p>}
      {hosts.map((host) => (
        <div key={host.host} className={`host-summary${host.failures > 0 ? ' has-failures' : ''}`}>
          <h3>
            {host.host}{' '}
            <span className="small muted">
              {host.ok} ok · {host.changed} changed ·{' '}
              <span className={host.failures > 0 ? 'tone-text-bad' : ''}>{host.failures} failed</span>
            </span>
          </h3>
          {host.failed.map(({ task, playbook, result }, i) => (
            <div className="failed-task" key={`${playbook}/${task}/${i}`}>
              <h4>
                <span className="badge tone-bad">FAILED</span> {task} <span className="small muted">({playbook})</span>
              </h4>
              <ResultDetails result={result} />
            </div>
          ))}
        </div>
      ))}
    </section>
  );
}

function formatSeconds(seconds: number | null): string {
  return seconds === null ? '' : formatDuration(seconds * 1000);
}

function hostState(result: HostResult): { label: string; tone: string } {
  if (result.failed) {
    return { label: 'FAILED', tone: 'bad' };
  }
  if (result.skipped) {
    return { label: 'SKIPPED', tone: 'muted' };
  }
  return result.changed ? { label: 'CHANGED', tone: 'warn' } : { label: 'OK', tone: 'good' };
}

export function TaskConsole({ output, running }: { output: Loaded<PlaybookRun[]>; running: boolean }) {
  const playbooks = output !== undefined && 'value' in output ? output.value : [];
  return (
    <section className="task-console" aria-labelledby="task-console-title">
      <h2 id="task-console-title">Plays and tasks</h2>
      <Unavailable output={output} running={running} />
      {playbooks.map((playbook, p) => (
        <section
          key={`${playbook.playbook}/${p}`}
          className="playbook"
          aria-label={`${phaseLabel(playbook.phase)} ${playbook.playbook}`}
        >
          <h3>
            {phaseLabel(playbook.phase)} <code>{playbook.playbook}</code>{' '}
            {playbook.trusted && <span className="badge tone-warn">trusted</span>}
          </h3>
          {playbook.plays.map((play, i) => (
            <div key={`${play.name}/${i}`} className="play">
              <h4>
                Play {play.name}{' '}
                <span className="small muted">{formatSeconds(secondsBetween(play.start, play.end))}</span>
              </h4>
              <ul className="tasks">
                {play.tasks.flatMap((task, t) =>
                  task.hosts.map((result) => {
                    const state = hostState(result);
                    const seconds = secondsBetween(task.start, task.end);
                    return (
                      <li key={`${t}/${result.host}`}>
                        <details open={result.failed}>
                          <summary>
                            <span className={`badge tone-${state.tone}`}>{state.label}</span>{' '}
                            <span className="task-name">{task.name}</span>{' '}
                            <span className="small muted">
                              {result.host}
                              {seconds !== null && ` · ${formatSeconds(seconds)}`}
                            </span>
                          </summary>
                          <ResultDetails result={result} />
                        </details>
                      </li>
                    );
                  }),
                )}
              </ul>
            </div>
          ))}
        </section>
      ))}
    </section>
  );
}
