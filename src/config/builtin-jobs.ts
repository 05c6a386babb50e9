/** Jobs every tenant has without defining them. */
import type { JobVariant } from './layout';

/** `noop`: a base job that succeeds without nodes or an executor. */
export const BUILTIN_NOOP: JobVariant = Object.freeze({
  name: 'noop',
  builtin: true,
  sourceContext: { projectCanonicalName: '', projectName: '', connectionName: '', branch: '', path: '', trusted: true },
  line: 0,
  projectPipelineVariant: false,
  attributes: {
    parent: null,
    deduplicate: true,
    description: 'A job that will always succeed, no nodes or executor are used.',
  },
  overrideControl: {},
});
