/**
 * Where a project is checked out inside a workspace's `src/` directory
 * (docs/executor.md#merge-modes-and-workspace-schemes):
 * - `golang`: `<host>/<project>` (the default), e.g. `git.example.local/example/hello`;
 * - `flat`: the last component of the project name, e.g. `hello`;
 * - `unique`: `<host>/<org>/<url-quoted full name>` (`<host>/<url-quoted name>` without an org),
 *   e.g. `git.example.local/example/example%2Fhello`.
 */
import path from 'node:path';
import type { WorkspaceScheme } from '../model/build-request';
import { assertSafeProjectName } from '../sources/git-mirror';

/** Relative path of a project's checkout under `src/` for a scheme. */
export function workspacePath(scheme: WorkspaceScheme, hostname: string, project: string): string {
  assertSafeProjectName(project);
  if (!/^[A-Za-z0-9_.:-]+$/.test(hostname) || hostname === '.' || hostname === '..') {
    throw new Error(`invalid canonical host name "${hostname}"`);
  }
  const segments = project.split('/');
  switch (scheme) {
    case 'golang':
      return path.join(hostname, ...segments);
    case 'flat':
      return segments[segments.length - 1];
    case 'unique': {
      const quoted = encodeURIComponent(project);
      return segments.length > 1 ? path.join(hostname, segments[0], quoted) : path.join(hostname, quoted);
    }
  }
}
