/**
 * Variables files whose strings Ansible must never template (docs/executor.md#variables-of-a-playbook):
 * every string is written with the `!unsafe` tag, so a secret or a branch name holding `{{ ... }}`
 * stays text. The document is YAML in flow style; JSON's string escapes are valid YAML.
 */
export function unsafeYaml(value: unknown): string {
  if (typeof value === 'string') {
    return `!unsafe ${JSON.stringify(value)}`;
  }
  if (Array.isArray(value)) {
    return `[${value.map(unsafeYaml).join(', ')}]`;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{${entries.map(([key, v]) => `${JSON.stringify(key)}: ${unsafeYaml(v)}`).join(', ')}}`;
  }
  if (typeof value === 'number' && !Number.isFinite(value)) {
    return 'null';
  }
  return value === undefined ? 'null' : JSON.stringify(value);
}
