/**
 * The Ansible versions a job (`ansible-version`) or a tenant (`default-ansible-version`) may
 * name: those of the reference's current releases, `9` (its default) and `11`. Sluice checks the
 * names as the reference does; the executor's one Ansible runs every playbook whatever the
 * version named (docs/project-configuration.md#differences-from-the-reference-and-what-is-not-supported-yet).
 */
export const SUPPORTED_ANSIBLE_VERSIONS: readonly string[] = ['9', '11'];

/** The reference's complaint about a version it does not know, or undefined for a supported one. */
export function unknownAnsibleVersion(version: string): string | undefined {
  return SUPPORTED_ANSIBLE_VERSIONS.includes(version)
    ? undefined
    : `Requested ansible version '${version}' is unknown. Supported versions are ${SUPPORTED_ANSIBLE_VERSIONS.join(', ')}`;
}
