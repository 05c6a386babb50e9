/**
 * Job-variant objects of `T/job/{name}` and `T/project/{name}` in both shapes (docs/rest.md#job-variants): schemas and
 * mappers from the RestJobVariantFields fragment.
 */
import type {
  RestJobVariantFieldsFragment,
  RestNodesetFieldsFragment,
  RestPlaybookFieldsFragment,
  RestSourceContextFieldsFragment,
} from '../generated/graphql';
import { arrayOf, bool, freeObject, int, nullable, object, str, type JsonSchema } from '../json-schema';
import type { RestShape } from '../shape';

type Variant = RestJobVariantFieldsFragment;

const sourceContextSchema = object({ project: str(), branch: str(), path: str() });
const roleSchema = object({ target_name: str(), type: str(), project_canonical_name: str(), implicit: bool() });

const nodeSchema = (shape: RestShape): JsonSchema =>
  shape === 'earlier'
    ? object({
        name: str(),
        aliases: arrayOf(str()),
        label: str(),
        state: str(),
        hold_job: { type: 'null' },
        comment: { type: 'null' },
      })
    : object({
        name: str(),
        aliases: arrayOf(str()),
        label: str(),
        id: { type: 'null' },
        state: str(),
        hold_job: { type: 'null' },
        comment: { type: 'null' },
        user_data: { type: 'null' },
        tenant_name: { type: 'null' },
        requestor: { type: 'null' },
      });

const nodesetSchema = (shape: RestShape): JsonSchema => {
  const fields: Record<string, JsonSchema> = {
    name: str(),
    nodes: arrayOf(nodeSchema(shape)),
    groups: arrayOf(object({ name: str(), nodes: arrayOf(str()) })),
  };
  return object(shape === 'earlier' ? fields : { ...fields, alternatives: arrayOf(freeObject()) });
};

const playbookSchema = (shape: RestShape): JsonSchema => {
  const fields: Record<string, JsonSchema> = {
    path: str(),
    roles: arrayOf(roleSchema),
    secrets: arrayOf(object({ name: str(), alias: str() })),
    source_context: sourceContextSchema,
  };
  return object(
    shape === 'earlier' ? fields : { ...fields, semaphores: arrayOf(object({ name: str() })), cleanup: bool() },
  );
};

const boolOrString: JsonSchema = { type: ['boolean', 'string'] };

/** The job-variant object of a shape; nodeset keys are present only as the rules say. */
export function jobVariantSchema(shape: RestShape): JsonSchema {
  const common: Record<string, JsonSchema> = {
    name: str(),
    files: arrayOf(str()),
    irrelevant_files: arrayOf(str()),
    variant_description: str(),
    source_context: nullable(sourceContextSchema),
    description: nullable(str()),
    required_projects: arrayOf(
      object({ project_name: str(), override_branch: nullable(str()), override_checkout: nullable(str()) }),
    ),
    variables: freeObject(),
    final: bool(),
    abstract: bool(),
    protected: nullable(bool()),
    voting: bool(),
    timeout: nullable(int('Seconds')),
    tags: arrayOf(str()),
    provides: arrayOf(str()),
    requires: arrayOf(str()),
    dependencies: arrayOf(object({ name: str(), soft: bool() })),
    attempts: int(),
    roles: arrayOf(roleSchema),
    run: arrayOf(playbookSchema(shape)),
    pre_run: arrayOf(playbookSchema(shape)),
    post_run: arrayOf(playbookSchema(shape)),
    post_review: nullable(bool()),
    parent: nullable(str()),
  };
  if (shape === 'earlier') {
    return object(
      { ...common, branches: arrayOf(str()), implied_branch: { type: 'null' }, semaphore: nullable(str()) },
      { nodeset: nodesetSchema(shape) },
    );
  }
  return object(
    {
      ...common,
      branches: nullable(arrayOf(str())),
      override_checkout: nullable(str()),
      semaphores: arrayOf(object({ name: str(), resources_first: bool() })),
      extra_variables: freeObject(),
      host_variables: freeObject(),
      group_variables: freeObject(),
      intermediate: bool(),
      pre_timeout: nullable(int()),
      post_timeout: nullable(int()),
      cleanup_run: arrayOf(playbookSchema(shape)),
      match_on_config_updates: bool(),
      deduplicate: boolOrString,
      failure_output: arrayOf(str()),
      image_build_name: nullable(str()),
      include_vars: arrayOf(object({ name: str(), project_name: nullable(str()), required: bool(), use_ref: bool() })),
      ansible_split_streams: nullable(bool()),
      ansible_version: nullable(str()),
      workspace_scheme: str(),
      workspace_checkout: boolOrString,
    },
    { nodeset: nodesetSchema(shape), nodeset_alternatives: arrayOf(nodesetSchema(shape)) },
  );
}

const sourceContext = (context: RestSourceContextFieldsFragment): Record<string, unknown> => ({
  project: context.project,
  branch: context.branch,
  path: context.path,
});

/** `AUTO` -> "auto", `ALWAYS` -> true, `NEVER` -> false: the reference's str|bool settings. */
const autoOrFlag = (value: 'ALWAYS' | 'AUTO' | 'NEVER'): boolean | string =>
  value === 'AUTO' ? 'auto' : value === 'ALWAYS';

function nodeset(set: RestNodesetFieldsFragment, shape: RestShape): Record<string, unknown> {
  const nodes = set.nodes.map((node) =>
    shape === 'earlier'
      ? { name: node.name, aliases: node.aliases, label: node.label, state: 'unknown', hold_job: null, comment: null }
      : {
          name: node.name,
          aliases: node.aliases,
          label: node.label,
          id: null,
          state: 'unknown',
          hold_job: null,
          comment: null,
          user_data: null,
          tenant_name: null,
          requestor: null,
        },
  );
  const base = { name: set.name, nodes, groups: set.groups.map((group) => ({ name: group.name, nodes: group.nodes })) };
  return shape === 'earlier' ? base : { ...base, alternatives: [] };
}

function playbook(play: RestPlaybookFieldsFragment, shape: RestShape): Record<string, unknown> {
  const base = {
    path: play.path,
    roles: play.roles.map((role) => ({
      target_name: role.targetName,
      type: role.type.toLowerCase(),
      project_canonical_name: role.projectCanonicalName,
      implicit: role.implicit,
    })),
    secrets: play.secrets.map((secret) => ({ name: secret.name, alias: secret.alias })),
    source_context: sourceContext(play.sourceContext),
  };
  return shape === 'earlier'
    ? base
    : { ...base, semaphores: play.semaphores.map((name) => ({ name })), cleanup: play.cleanup };
}

/** The nodeset keys: `nodeset` for exactly one non-empty nodeset, `nodeset_alternatives` for several. */
function nodesetKeys(variant: Variant, shape: RestShape): Record<string, unknown> {
  if (shape === 'current' && variant.nodesetAlternatives.length > 1) {
    return { nodeset_alternatives: variant.nodesetAlternatives.map((set) => nodeset(set, shape)) };
  }
  const single = variant.nodeset ?? variant.nodesetAlternatives[0] ?? null;
  return single !== null && single.nodes.length > 0 ? { nodeset: nodeset(single, shape) } : {};
}

/** One job variant in the wire shape. */
export function mapJobVariant(variant: Variant, shape: RestShape): Record<string, unknown> {
  const plays = (list: RestPlaybookFieldsFragment[]): Record<string, unknown>[] =>
    list.map((play) => playbook(play, shape));
  const common = {
    name: variant.name,
    files: variant.files,
    irrelevant_files: variant.irrelevantFiles,
    variant_description: variant.variantDescription,
    source_context: variant.sourceContext ? sourceContext(variant.sourceContext) : null,
    description: variant.description,
    required_projects: variant.requiredProjects.map((project) => ({
      project_name: shape === 'earlier' ? project.projectCanonicalName : project.projectName,
      override_branch: project.overrideBranch,
      override_checkout: project.overrideCheckout,
    })),
    variables: variant.variables,
    final: variant.final,
    abstract: variant.abstract,
    protected: variant.protected,
    voting: variant.voting,
    timeout: variant.timeout,
    tags: variant.tags,
    provides: variant.provides,
    requires: variant.requires,
    dependencies: variant.dependencies.map((dependency) => ({ name: dependency.name, soft: dependency.soft })),
    attempts: variant.attempts,
    roles: variant.roles.map((role) => ({
      target_name: role.targetName,
      type: role.type.toLowerCase(),
      project_canonical_name: role.projectCanonicalName,
      implicit: role.implicit,
    })),
    run: plays(variant.run),
    pre_run: plays(variant.preRun),
    post_run: plays(variant.postRun),
    post_review: variant.postReview,
    parent: variant.parent,
    ...nodesetKeys(variant, shape),
  };
  if (shape === 'earlier') {
    return {
      ...common,
      branches: variant.branches ?? [],
      implied_branch: null,
      semaphore: variant.semaphores[0]?.name ?? null,
    };
  }
  return {
    ...common,
    branches: variant.branches,
    override_checkout: variant.overrideCheckout,
    semaphores: variant.semaphores.map((semaphore) => ({
      name: semaphore.name,
      resources_first: semaphore.resourcesFirst,
    })),
    extra_variables: variant.extraVariables,
    host_variables: variant.hostVariables,
    group_variables: variant.groupVariables,
    intermediate: variant.intermediate,
    pre_timeout: variant.preTimeout,
    post_timeout: variant.postTimeout,
    // The reference's `cleanup` flag is the `cleanup` attribute of a post-run entry; scripts of
    // the deprecated cleanup-run phase show false there (docs/rest.md#current-shape-cases #22).
    cleanup_run: plays(variant.cleanupRun).map((play) => ({ ...play, cleanup: false })),
    match_on_config_updates: variant.matchOnConfigUpdates,
    deduplicate: autoOrFlag(variant.deduplicate),
    failure_output: variant.failureOutput,
    image_build_name: variant.imageBuildName,
    include_vars: variant.includeVars.map((include) => ({
      name: include.name,
      project_name: include.projectName,
      required: include.required,
      use_ref: include.useRef,
    })),
    ansible_split_streams: variant.ansibleSplitStreams,
    ansible_version: variant.ansibleVersion,
    workspace_scheme: variant.workspaceScheme.toLowerCase(),
    workspace_checkout: autoOrFlag(variant.workspaceCheckout),
  };
}
