/**
 * What playbooks returned with `zuul_return` (docs/executor.md#zuul_return), read from the
 * build's `zuul.executor.result_data_file` once its playbooks ran: `{"data": ..., "secret_data":
 * ...}`. `data` is kept whole as the build's returned data (child jobs get it as variables, the
 * `zuul` key left out); its `zuul` key says what Sluice does with the build: `artifacts`,
 * `child_jobs`, `pause`, `retry`, `log_url`, `warnings`, `file_comments`.
 */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { resolveArtifactUrl, type BuildResults } from '../results-file';

const artifactSchema = z
  .object({ name: z.string().min(1), url: z.string().min(1), metadata: z.record(z.string(), z.unknown()).optional() })
  .strict();

const rangeSchema = z
  .object({
    start_line: z.number().int().min(0),
    start_character: z.number().int().min(0),
    end_line: z.number().int().min(0),
    end_character: z.number().int().min(0),
  })
  .strict();

/** `zuul.file_comments`: per file, comments on a line (or a range). */
const fileCommentsSchema = z.record(
  z.string(),
  z.array(
    z
      .object({
        message: z.string(),
        line: z.number().int().min(0).optional(),
        level: z.enum(['info', 'warning', 'error']).optional(),
        range: rangeSchema.optional(),
      })
      .strict(),
  ),
);

const zuulSchema = z
  .object({
    artifacts: z.array(artifactSchema).optional(),
    child_jobs: z.array(z.string()).optional(),
    pause: z.boolean().optional(),
    retry: z.boolean().optional(),
    log_url: z.string().min(1).optional(),
    warnings: z.array(z.string()).optional(),
    file_comments: z.unknown().optional(),
  })
  .passthrough();

const fileSchema = z
  .object({
    data: z.record(z.string(), z.unknown()).default({}),
    secret_data: z.record(z.string(), z.unknown()).default({}),
  })
  .passthrough();

export interface ZuulReturnResults extends BuildResults {
  /** `zuul.retry`: false turns a pre-run failure into FAILURE; true retries the build. */
  retry: boolean | null;
  /** `zuul.log_url`: the build's log URL instead of Sluice's (a trailing `/` added). */
  logUrl: string | null;
}

export type ZuulReturnOutcome = { ok: true; results: ZuulReturnResults | null } | { ok: false; error: string };

/** Read the file; a missing or empty file means "nothing returned" (`results` null). */
export async function readZuulReturn(file: string, logUrl: string | null): Promise<ZuulReturnOutcome> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      return { ok: true, results: null };
    }
    return { ok: false, error: `Unable to read the zuul_return data: ${(err as Error).message}` };
  }
  if (text.trim() === '') {
    return { ok: true, results: null };
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { ok: false, error: 'Invalid zuul_return data: not valid JSON' };
  }
  const parsed = fileSchema.safeParse(raw);
  if (!parsed.success) {
    return { ok: false, error: `Invalid zuul_return data: ${describe(parsed.error)}` };
  }
  const data = parsed.data.data;
  const zuulParsed = zuulSchema.safeParse(data.zuul ?? {});
  if (!zuulParsed.success) {
    return { ok: false, error: `Invalid zuul_return data: zuul.${describe(zuulParsed.error)}` };
  }
  const zuul = zuulParsed.data;
  const warnings = [...(zuul.warnings ?? [])];
  if (Object.keys(parsed.data.secret_data).length > 0) {
    warnings.push('zuul_return secret_data is not supported by Sluice yet; it was not passed on');
  }
  if (zuul.file_comments !== undefined && !fileCommentsSchema.safeParse(zuul.file_comments).success) {
    warnings.push('zuul_return zuul.file_comments is not a mapping of files to comments; it was dropped');
    data.zuul = { ...(data.zuul as Record<string, unknown>) };
    delete (data.zuul as Record<string, unknown>).file_comments;
  }
  return {
    ok: true,
    results: {
      artifacts: (zuul.artifacts ?? []).map((artifact) => ({
        name: artifact.name,
        url: resolveArtifactUrl(artifact.url, logUrl),
        metadata: artifact.metadata ?? null,
      })),
      data,
      childJobs: zuul.child_jobs ?? null,
      pause: zuul.pause ?? false,
      warnings,
      retry: zuul.retry ?? null,
      logUrl: zuul.log_url === undefined ? null : zuul.log_url.endsWith('/') ? zuul.log_url : `${zuul.log_url}/`,
    },
  };
}

function describe(error: z.ZodError): string {
  const issue = error.issues[0];
  return `${issue.path.length > 0 ? `${issue.path.map(String).join('.')}: ` : ''}${issue.message}`;
}
