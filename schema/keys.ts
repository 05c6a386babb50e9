/**
 * Public keys of a tenant and its projects (docs/security.md §3): the project secrets key
 * (PEM, for encrypting secrets), the project SSH key and the tenant SSH key (OpenSSH). Keys are
 * created on first request; private parts never leave src/auth.
 */
import { tenantFileProjectResolver } from '../src/auth/tenant-projects';
import { builder } from './infra/builder';
import type { GraphQLContext } from './infra/context';
import { NotFoundError } from './infra/errors';
import { Tenant } from './tenant';

interface ProjectKeysShape {
  tenant: string;
  canonicalName: string;
}

/** The canonical name of a project of the tenant (short or canonical `name`), or undefined. */
async function canonicalProject(ctx: GraphQLContext, tenant: string, name: string): Promise<string | undefined> {
  const layout = ctx.services.tenants.layout(tenant);
  if (layout === undefined) {
    return tenantFileProjectResolver(ctx.services.config)(tenant, name);
  }
  if (layout.projects.has(name)) {
    return name;
  }
  const byShortName = [...layout.projects.values()].filter((project) => project.name === name);
  return byShortName.length === 1 ? byShortName[0]?.canonicalName : undefined;
}

const ProjectKeys = builder.objectRef<ProjectKeysShape>('ProjectKeys').implement({
  description: 'Public keys of a project (shared by every tenant that contains it).',
  fields: (t) => ({
    canonicalName: t.exposeString('canonicalName', {
      nullable: false,
      description: 'Canonical project name (owner of the keys).',
    }),
    secretsPublicKey: t.string({
      nullable: false,
      description:
        'RSA public key (PEM SubjectPublicKeyInfo) to encrypt secrets for this project (REST `key/{project}.pub`).',
      resolve: async (keys, _args, ctx) =>
        (await (await ctx.services.auth.keys()).secretsKey(keys.canonicalName)).publicKeyText,
    }),
    sshPublicKey: t.string({
      nullable: false,
      description:
        'The project SSH public key, OpenSSH format with a trailing newline (REST `project-ssh-key/{project}.pub`).',
      resolve: async (keys, _args, ctx) =>
        (await (await ctx.services.auth.keys()).projectSshKey(keys.canonicalName)).publicKeyText,
    }),
  }),
});

builder.objectFields(Tenant, (t) => ({
  sshPublicKey: t.string({
    nullable: false,
    description: 'The tenant SSH public key, OpenSSH format with a trailing newline (REST `tenant-ssh-key/ssh.pub`).',
    resolve: async (tenant, _args, ctx) =>
      (await (await ctx.services.auth.keys()).tenantSshKey(tenant.name)).publicKeyText,
  }),
  projectKeys: t.field({
    type: ProjectKeys,
    description: 'Public keys of one project of the tenant; a NotFoundError when the tenant has no such project.',
    args: { project: t.arg.string({ required: true, description: 'Project name (short or canonical).' }) },
    errors: { types: [NotFoundError], directResult: true },
    resolve: async (tenant, { project }, ctx) => {
      const canonicalName = await canonicalProject(ctx, tenant.name, project);
      if (canonicalName === undefined) {
        throw new NotFoundError('Project', project, `Project ${project} does not exist.`);
      }
      return { tenant: tenant.name, canonicalName };
    },
  }),
}));
