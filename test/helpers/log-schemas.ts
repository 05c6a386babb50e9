/**
 * JSON schemas of the files a build leaves in its log folder, written from the reference's
 * formats as docs/logs.md describes them (not from Sluice's code): `zuul-manifest.json`,
 * `job-output.json` and `zuul-info/inventory.yaml` (parsed from YAML). Tests validate what a
 * real build wrote against them with `expectValid`.
 */
import { z } from 'zod';

const isoUtc = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/, 'ISO time with microseconds, UTC');
const commandTime = z.string().regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}$/, 'command time');

// --- zuul-manifest.json -------------------------------------------------------------------

const manifestFile = z
  .object({
    name: z.string().min(1),
    mimetype: z.string().regex(/^[a-z]+\/[a-z0-9.+-]+$/),
    encoding: z.string().nullable(),
    last_modified: z.number().int().nonnegative(),
    size: z.number().int().nonnegative(),
  })
  .strict();

export type ManifestNode =
  | z.infer<typeof manifestFile>
  | { name: string; mimetype: 'application/directory'; encoding: null; children: ManifestNode[] };

export const manifestNodeSchema: z.ZodType<ManifestNode> = z.lazy(() =>
  z.union([
    z
      .object({
        name: z.string().min(1),
        mimetype: z.literal('application/directory'),
        encoding: z.null(),
        children: z.array(manifestNodeSchema),
      })
      .strict(),
    manifestFile,
  ]),
);

export const manifestSchema = z.object({ tree: z.array(manifestNodeSchema), index_links: z.boolean() }).strict();
export type Manifest = z.infer<typeof manifestSchema>;

// --- job-output.json ----------------------------------------------------------------------

const duration = z.object({ start: isoUtc, end: isoUtc }).strict();

/**
 * A command result on one host (a script step, or an Ansible `command`/`shell` task that ran):
 * what the task summary and console views read. `cmd` is a string for scripts and shell tasks,
 * the argument list for command tasks.
 */
export const commandResultSchema = z.looseObject({
  action: z.string(),
  changed: z.boolean(),
  failed: z.boolean().optional(),
  rc: z.number().int().nullable(),
  msg: z.string(),
  cmd: z.union([z.string(), z.array(z.string())]),
  start: commandTime,
  end: commandTime,
  delta: z.string().regex(/^\d+:\d{2}:\d{2}\.\d{6}$/),
  stdout: z.string(),
  stderr: z.string(),
  stdout_lines: z.array(z.string()),
  stderr_lines: z.array(z.string()),
});

/** Any other module result: the reference's callback keeps it whole, with the task's action added. */
const moduleResultSchema = z.looseObject({
  action: z.string(),
  changed: z.boolean().optional(),
  failed: z.boolean().optional(),
  skipped: z.boolean().optional(),
  unreachable: z.boolean().optional(),
});

/** A result hidden by `no_log`. */
const censoredResultSchema = z.looseObject({ action: z.string(), censored: z.string() });

const COMMAND_ACTIONS = new Set([
  'command',
  'shell',
  'ansible.builtin.command',
  'ansible.builtin.shell',
  'ansible.legacy.command',
  'ansible.legacy.shell',
]);

/** The result of a task on one host: a command that ran is held to the command shape. */
export const hostResultSchema = z.looseObject({ action: z.string() }).pipe(
  z.custom<z.infer<typeof moduleResultSchema>>().superRefine((value, ctx) => {
    const result = value as Record<string, unknown>;
    const schema =
      'censored' in result
        ? censoredResultSchema
        : COMMAND_ACTIONS.has(String(result.action)) &&
            result.skipped !== true &&
            result.start !== null &&
            'rc' in result
          ? commandResultSchema
          : moduleResultSchema;
    const parsed = schema.safeParse(result);
    for (const issue of parsed.success ? [] : parsed.error.issues) {
      ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
    }
  }),
);

const hostStats = z
  .object({
    changed: z.number().int().nonnegative(),
    failures: z.number().int().nonnegative(),
    ignored: z.number().int().nonnegative(),
    ok: z.number().int().nonnegative(),
    rescued: z.number().int().nonnegative(),
    skipped: z.number().int().nonnegative(),
    unreachable: z.number().int().nonnegative(),
  })
  .strict();

export const playbookSchema = z
  .object({
    playbook: z.string().min(1),
    phase: z.enum(['pre', 'run', 'post', 'cleanup']),
    index: z.string().regex(/^\d+$/),
    branch: z.string(),
    trusted: z.boolean(),
    plays: z.array(
      z
        .object({
          play: z.object({ name: z.string(), id: z.string().min(1), duration }).strict(),
          tasks: z.array(
            z.looseObject({
              task: z.object({ name: z.string(), id: z.string().min(1), duration }).strict(),
              hosts: z.record(z.string(), hostResultSchema),
              role: z.object({ name: z.string(), id: z.string(), path: z.string() }).strict().optional(),
            }),
          ),
        })
        .strict(),
    ),
    stats: z.record(z.string(), hostStats),
  })
  .strict();

export const jobOutputSchema = z.array(playbookSchema);
export type JobOutput = z.infer<typeof jobOutputSchema>;

// --- zuul-info/inventory.yaml -------------------------------------------------------------

const projectVars = z.looseObject({ name: z.string(), short_name: z.string(), src_dir: z.string().optional() });

export const inventorySchema = z
  .object({
    all: z
      .object({
        hosts: z.record(
          z.string(),
          z.looseObject({
            ansible_connection: z.enum(['local', 'ssh']),
            ansible_host: z.string(),
            ansible_port: z.number().int().nullable(),
            ansible_user: z.string().nullable(),
            nodepool: z.looseObject({ label: z.string() }),
          }),
        ),
        children: z.record(
          z.string(),
          z.looseObject({ hosts: z.record(z.string(), z.null()), vars: z.record(z.string(), z.unknown()).optional() }),
        ),
        vars: z.looseObject({
          zuul: z.looseObject({
            build: z.string().regex(/^[0-9a-f]{32}$/),
            buildset: z.string().min(1),
            tenant: z.string(),
            pipeline: z.string(),
            job: z.string(),
            project: projectVars,
            ref: z.string(),
            branch: z.string().nullable(),
            change: z.string().optional(),
            patchset: z.string().nullable().optional(),
            items: z.array(z.looseObject({ project: projectVars, ref: z.string() })),
            projects: z.record(z.string(), projectVars),
            attempts: z.number().int().min(1),
            max_attempts: z.number().int().min(1),
            executor: z.looseObject({ log_root: z.string(), src_root: z.string(), work_root: z.string() }),
          }),
        }),
      })
      .strict(),
  })
  .strict();
export type Inventory = z.infer<typeof inventorySchema>;

/** Parse `value` with `schema`; on failure, fail the test naming every problem and where it is. */
export function expectValid<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.map(String).join('.')}: ${issue.message}`);
    throw new Error(`${what} does not match its schema:\n${problems.join('\n')}`);
  }
  return parsed.data;
}

/** Every file path (slash-separated) of a manifest tree. */
export function manifestPaths(tree: ManifestNode[], prefix = ''): string[] {
  return tree.flatMap((node) =>
    'children' in node ? manifestPaths(node.children, `${prefix}${node.name}/`) : [`${prefix}${node.name}`],
  );
}
