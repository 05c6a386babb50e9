/**
 * What an executor stores with a paused build (`build_requests.pause_state`) to continue it
 * later, possibly from another process on the same host: when it started, the checkouts its
 * post-run steps use, the files its changes touched and, for an SSH node, where the workspace
 * is on the node.
 */
import { z } from 'zod';
import type { WorkspaceProject } from './merger';

export interface PauseState {
  /** ISO start time (reported again on completion). */
  startTime: string;
  projects: WorkspaceProject[];
  changedFiles: string[] | null;
  /** Workspace root on the SSH node the steps ran on; null for local workspaces. */
  remoteRoot: string | null;
}

const pauseStateSchema: z.ZodType<PauseState> = z.object({
  startTime: z.string(),
  projects: z.array(
    z.object({
      connection: z.string(),
      project: z.string(),
      path: z.string(),
      relativePath: z.string(),
      checkout: z.string(),
      head: z.string(),
      speculativeBranches: z.record(z.string(), z.string()),
    }),
  ),
  changedFiles: z.array(z.string()).nullable(),
  remoteRoot: z.string().nullable(),
});

/** The stored pause state, or null when it is missing or malformed. */
export function parsePauseState(value: unknown): PauseState | null {
  const parsed = pauseStateSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}
