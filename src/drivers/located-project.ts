/**
 * Shared by the change sources of drivers with a remote API (github, gitlab): a tenant project
 * found on one of the driver's connections, and a remote read where 404 means "no such change".
 */
import type { GitProjects } from '../sources/git-projects';

/** The connection serving `project` and the project's name there, or null if none of ours does. */
export function locateProject<C>(
  projects: GitProjects,
  connections: ReadonlyMap<string, C>,
  project: string,
): { connection: C; name: string } | null {
  const location = projects.locate(project);
  const connection = location ? connections.get(location.connection) : undefined;
  return location && connection ? { connection, name: location.name } : null;
}

/** The read's result, or null when the remote answered 404. */
export async function nullIfNotFound<T>(read: () => Promise<T>): Promise<T | null> {
  try {
    return await read();
  } catch (err) {
    if ((err as { status?: number }).status === 404) {
      return null;
    }
    throw err;
  }
}
