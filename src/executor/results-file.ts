/**
 * The results file a step may write (path in `SLUICE_RESULTS_FILE`): JSON returning artifacts,
 * data for child jobs, the child jobs to keep, whether to pause and warnings (docs/executor.md,
 * "Results file").
 * A malformed file never crashes a build: it is reported in `error_detail`.
 */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import type { BuildArtifact } from '../model/build-request';

const resultsSchema = z
  .object({
    artifacts: z
      .array(
        z
          .object({
            name: z.string().min(1),
            url: z.string().min(1),
            metadata: z.record(z.string(), z.unknown()).optional(),
          })
          .strict(),
      )
      .default([]),
    data: z.record(z.string(), z.unknown()).default({}),
    child_jobs: z.array(z.string()).optional(),
    pause: z.boolean().default(false),
    warnings: z.array(z.string()).default([]),
  })
  .strict();

export interface BuildResults {
  artifacts: BuildArtifact[];
  data: Record<string, unknown>;
  childJobs: string[] | null;
  /** Pause after the run phase until the dependent jobs have completed (the reference's `zuul.pause`). */
  pause: boolean;
  warnings: string[];
  /** `zuul.retry` returned by a playbook (docs/executor.md#zuul_return); absent = not said. */
  retry?: boolean | null;
  /** `zuul.log_url` returned by a playbook: the build's log URL instead of Sluice's. */
  logUrl?: string | null;
}

export type ResultsFileOutcome = { ok: true; results: BuildResults } | { ok: false; error: string };

export const EMPTY_RESULTS: BuildResults = { artifacts: [], data: {}, childJobs: null, pause: false, warnings: [] };

/**
 * Read and validate the results file; a missing file means "nothing returned". Relative
 * artifact URLs are resolved against the build's log URL (when there is one).
 */
export async function readResultsFile(file: string, logUrl: string | null): Promise<ResultsFileOutcome> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      return { ok: true, results: EMPTY_RESULTS };
    }
    return { ok: false, error: `Unable to read the results file: ${(err as Error).message}` };
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    return { ok: false, error: `Invalid results file: ${withoutQuotedText((err as Error).message)}` };
  }
  const parsed = resultsSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue.path.length > 0 ? `${issue.path.map(String).join('.')}: ` : '';
    return { ok: false, error: `Invalid results file: ${where}${issue.message}` };
  }
  const { artifacts, data, child_jobs: childJobs, pause, warnings } = parsed.data;
  return {
    ok: true,
    results: {
      artifacts: artifacts.map((a) => ({
        name: a.name,
        url: resolveArtifactUrl(a.url, logUrl),
        metadata: a.metadata ?? null,
      })),
      data,
      childJobs: childJobs ?? null,
      pause,
      warnings,
    },
  };
}

/**
 * V8 quotes the start of the text in some JSON errors (`Unexpected token 'c', "{"a": correct-ho"...
 * is not valid JSON`); a cut-off secret there could not be masked, so the quote is dropped.
 */
function withoutQuotedText(message: string): string {
  return message.replace(/, ".*$/s, ' (not valid JSON)');
}

/**
 * The results of both files (a script's results file, then the playbooks' `zuul_return`
 * data): artifacts and warnings joined, data merged key by key (the playbooks' last), the
 * playbooks' `child_jobs`, `retry` and `log_url` when they returned them, pause when either asked.
 */
export function combineResults(scripts: BuildResults, playbooks: BuildResults | null): BuildResults {
  if (playbooks === null) {
    return scripts;
  }
  return {
    artifacts: [...scripts.artifacts, ...playbooks.artifacts],
    data: { ...scripts.data, ...playbooks.data },
    childJobs: playbooks.childJobs ?? scripts.childJobs,
    pause: scripts.pause || playbooks.pause,
    warnings: [...scripts.warnings, ...playbooks.warnings],
    retry: playbooks.retry ?? scripts.retry ?? null,
    logUrl: playbooks.logUrl ?? scripts.logUrl ?? null,
  };
}

export function resolveArtifactUrl(url: string, logUrl: string | null): string {
  if (logUrl === null || /^[a-z][a-z0-9+.-]*:/i.test(url)) {
    return url;
  }
  try {
    return new URL(url, logUrl).toString();
  } catch {
    return url;
  }
}
