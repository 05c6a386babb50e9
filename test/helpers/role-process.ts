/**
 * A real `sluice serve --roles ...` child process (docs/operations.md#roles): started with a
 * configuration file, its address read from the banner's health line (printed by every process,
 * with or without the api role).
 */
import path from 'node:path';
import type { Knex } from 'knex';
import { describeExit, processExit, stopCleanly, type ProcessExit, type WatchedProcess } from './process-exit';
import { spawnServe } from './serve-process';

export interface RoleProcess extends WatchedProcess {
  name: string;
  /** `http://127.0.0.1:<port>` */
  base: string;
  /** SIGTERM, then how it ended (SIGKILL after `graceMs`): for clean-up, which checks nothing. */
  stop(graceMs?: number): Promise<ProcessExit>;
  /** SIGTERM, then a failure naming the code, the signal and the output's tail unless it exits with code 0. */
  stopCleanly(): Promise<void>;
}

/** `roles` is the `--roles` value; undefined leaves the choice to the configuration's `roles` key. */
export async function startRoleProcess(
  name: string,
  configFile: string,
  roles: string | undefined,
): Promise<RoleProcess> {
  const child = spawnServe(configFile, { roles, cwd: path.dirname(configFile) });
  let output = '';
  const exited = processExit(child);
  const base = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Health:\s+(http:\/\/\S+)\/health\/ready/.exec(output);
      if (match) {
        resolve(match[1]);
      }
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    void exited.then((exit) => reject(new Error(`${name} exited early (${describeExit(exit)}): ${output}`)));
  });
  const watched: WatchedProcess = { child, exited, output: () => output };
  return {
    ...watched,
    name,
    base,
    stop: async (graceMs = 15_000) => {
      if (child.exitCode !== null || child.signalCode !== null) {
        return exited;
      }
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      const exit = await exited;
      clearTimeout(timer);
      return exit;
    },
    stopCleanly: () => stopCleanly(watched, name),
  };
}

/**
 * An api, a scheduler and an executor process of `deployment` on one PostgreSQL database (the
 * other two link to the api process), pushed onto `processes` as they start; `common` is added to
 * every configuration. Resolves once the scheduler leads `tenant`.
 */
export async function startGateRoles(
  deployment: { configFile(name: string, databaseUrl: string, extra: Record<string, unknown>): string },
  database: { url?: string; knex: Knex },
  tenant: string,
  common: Record<string, unknown>,
  processes: RoleProcess[],
): Promise<{ api: RoleProcess }> {
  const start = async (name: string, roles: string, extra: Record<string, unknown> = {}): Promise<RoleProcess> => {
    const child = await startRoleProcess(
      name,
      deployment.configFile(name, database.url ?? '', { ...common, ...extra }),
      roles,
    );
    processes.push(child);
    return child;
  };
  const api = await start('api', 'api');
  const linked = { api: { publicUrl: api.base } };
  await Promise.all([start('scheduler', 'scheduler', linked), start('executor', 'executor', linked)]);
  const deadline = Date.now() + 60_000;
  while ((await database.knex('scheduler_leases').where({ tenant }).first()) === undefined) {
    if (Date.now() > deadline) {
      throw new Error(`no scheduler took the lead of tenant ${tenant}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { api };
}
