/**
 * The service configuration of a `driver: git` connection (docs/configuration.md#keys).
 */
import { z } from 'zod';
import { refUrlTemplateProblem } from '../../model/ref-url-templates';

/** A ref URL template (docs/configuration.md#ref-url-templates): known placeholders only. */
const refUrlTemplate = z
  .string()
  .min(1)
  .superRefine((template, ctx) => {
    const problem = refUrlTemplateProblem(template);
    if (problem !== null) {
      ctx.addIssue({ code: 'custom', message: problem });
    }
  });

export const gitConnection = z
  .object({
    driver: z.literal('git'),
    /** A directory holding one bare or non-bare repository per project, or a URL prefix git can clone. */
    baseurl: z.string().min(1),
    /** Seconds between polls for branch and change updates. */
    pollInterval: z.number().positive().default(60),
    /** Host name used in canonical project names (`<canonicalHostname>/<project>`). */
    canonicalHostname: z.string().min(1).optional(),
    /**
     * A directory of plain project directories; at start, each one that has no repository under
     * `baseurl` yet becomes a git repository there (used by the quickstart).
     */
    seedFrom: z.string().min(1).optional(),
    /** Web links of changes, branch heads and commits (docs/configuration.md#ref-url-templates). */
    changeUrlTemplate: refUrlTemplate.optional(),
    branchUrlTemplate: refUrlTemplate.optional(),
    gitwebUrlTemplate: refUrlTemplate.optional(),
  })
  .strict();

export type GitConnectionConfig = z.infer<typeof gitConnection>;
