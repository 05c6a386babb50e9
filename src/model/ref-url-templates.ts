/**
 * The syntax of ref URL templates (docs/configuration.md#ref-url-templates): the reference's
 * placeholders (`{baseurl}`, `{project.name}`, `{sha}`, as in its `gitweb_url_template`) and a
 * few more for changes and branches; `{{` and `}}` are literal braces. A git connection's
 * settings check their templates with it; src/config/ref-urls.ts makes the links.
 */

/** The placeholders a template may use. */
export const REF_URL_PLACEHOLDERS = [
  'baseurl',
  'project.name',
  'project.canonical_name',
  'change.number',
  'change.patchset',
  'branch',
  'ref',
  'sha',
] as const;
export type RefUrlPlaceholder = (typeof REF_URL_PLACEHOLDERS)[number];

/** The URL template keys of a git connection. */
export interface RefUrlTemplates {
  /** Changes (`refs/changes/...`). */
  changeUrlTemplate?: string;
  /** Branch heads; `gitwebUrlTemplate` when absent. */
  branchUrlTemplate?: string;
  /** Commits: tags and other refs link to their new revision (and branches without `branchUrlTemplate`). */
  gitwebUrlTemplate?: string;
}

const TOKEN = /\{\{|\}\}|\{([^{}]*)\}|[{}]/g;

/** The problem with a template (unknown placeholder, lone brace), or null when it is well formed. */
export function refUrlTemplateProblem(template: string): string | null {
  for (const match of template.matchAll(TOKEN)) {
    const [token, name] = match;
    if (token === '{{' || token === '}}') {
      continue;
    }
    if (name === undefined) {
      return `unmatched "${token}" (write "${token}${token}" for a literal brace)`;
    }
    if (!(REF_URL_PLACEHOLDERS as readonly string[]).includes(name)) {
      return `unknown placeholder {${name}} (known: ${REF_URL_PLACEHOLDERS.map((p) => `{${p}}`).join(', ')})`;
    }
  }
  return null;
}

/**
 * The template with its placeholders filled in, or null when it names a placeholder this ref has
 * no value for (`{change.number}` of a branch, `{sha}` of a ref whose revision is unknown).
 * Values are inserted as they are, as the reference does.
 */
export function renderRefUrl(template: string, values: Partial<Record<RefUrlPlaceholder, string>>): string | null {
  let missing = false;
  const rendered = template.replace(TOKEN, (token: string, name: string | undefined) => {
    if (token === '{{') {
      return '{';
    }
    if (token === '}}') {
      return '}';
    }
    const value = name === undefined ? undefined : values[name as RefUrlPlaceholder];
    if (value === undefined) {
      missing = true;
      return '';
    }
    return value;
  });
  return missing ? null : rendered;
}
