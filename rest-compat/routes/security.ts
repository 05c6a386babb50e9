/**
 * Security endpoints (docs/security.md#who-may-do-what-rules, docs/security.md#keys): `authorizations` at the root and
 * per tenant, and the public keys served as text (`T/key/{project}.pub`, PEM;
 * `T/project-ssh-key/{project}.pub` and `T/tenant-ssh-key/ssh.pub`, OpenSSH).
 */
import {
  RestAuthorizationsDocument,
  RestProjectSecretsKeyDocument,
  RestProjectSshKeyDocument,
  RestTenantSshKeyDocument,
} from '../generated/graphql';
import { arrayOf, bool, object, str } from '../json-schema';
import type { RestEndpoint, RestRoute } from '../route';
import { orNotFound } from '../wire';

const authorizationsSchema = object({ zuul: object({ admin: bool(), scope: arrayOf(str()) }) });

function authorizationsEndpoint(tenantScoped: boolean): RestEndpoint {
  return {
    summary: tenantScoped
      ? 'Whether the caller is admin of the tenant'
      : 'Whether the caller is admin of the root (`*`)',
    auth: 'token',
    operations: ['RestAuthorizations'],
    responses: {
      current: { status: 200, schema: authorizationsSchema, description: '{"zuul": {"admin", "scope"}}' },
      earlier: { status: 200, schema: authorizationsSchema, description: '{"zuul": {"admin", "scope"}}' },
    },
    errors: { 401: 'No valid token', 403: 'The tenant restricts reading', 404: 'Tenant not found' },
    handler: async (req) => {
      const data = await req.run(RestAuthorizationsDocument, { tenant: tenantScoped ? req.params.tenant_name : null });
      const rights = orNotFound(data.authorizations, 'Tenant not found');
      return { body: { zuul: { admin: rights.admin, scope: rights.scope } } };
    },
  };
}

export const rootAuthorizationsRoute: RestRoute = {
  name: 'authorizations',
  pattern: 'authorizations',
  endpoints: { GET: authorizationsEndpoint(false) },
};

export const tenantAuthorizationsRoute: RestRoute = {
  name: 'tenant_authorizations',
  pattern: 'tenant/{tenant_name}/authorizations',
  endpoints: { GET: authorizationsEndpoint(true) },
};

function textKeyEndpoint(summary: string, operation: string, handler: RestEndpoint['handler']): RestEndpoint {
  return {
    summary,
    auth: 'public',
    operations: [operation],
    responses: {
      current: { status: 200, contentType: 'text/plain', description: summary },
      earlier: { status: 200, contentType: 'text/plain', description: summary },
    },
    errors: { 404: 'Tenant not found | Project does not exist' },
    handler,
  };
}

export const projectSecretsKeyRoute: RestRoute = {
  name: 'project_secrets_key',
  pattern: 'tenant/{tenant_name}/key/{project_name:.*}.pub',
  endpoints: {
    GET: textKeyEndpoint('The project secrets public key (PEM)', 'RestProjectSecretsKey', async (req) => {
      const data = await req.run(RestProjectSecretsKeyDocument, {
        tenant: req.params.tenant_name,
        project: req.params.project_name,
      });
      const keys = orNotFound(orNotFound(data.tenant, 'Tenant not found').projectKeys, 'Project does not exist');
      return { body: keys.secretsPublicKey };
    }),
  },
};

export const projectSshKeyRoute: RestRoute = {
  name: 'project_ssh_key',
  pattern: 'tenant/{tenant_name}/project-ssh-key/{project_name:.*}.pub',
  endpoints: {
    GET: textKeyEndpoint('The project SSH public key (OpenSSH)', 'RestProjectSshKey', async (req) => {
      const data = await req.run(RestProjectSshKeyDocument, {
        tenant: req.params.tenant_name,
        project: req.params.project_name,
      });
      const keys = orNotFound(orNotFound(data.tenant, 'Tenant not found').projectKeys, 'Project does not exist');
      return { body: keys.sshPublicKey };
    }),
  },
};

export const tenantSshKeyRoute: RestRoute = {
  name: 'tenant_ssh_key',
  pattern: 'tenant/{tenant_name}/tenant-ssh-key/ssh.pub',
  endpoints: {
    GET: textKeyEndpoint('The tenant SSH public key (OpenSSH)', 'RestTenantSshKey', async (req) => {
      const data = await req.run(RestTenantSshKeyDocument, { tenant: req.params.tenant_name });
      return { body: orNotFound(data.tenant, 'Tenant not found').sshPublicKey };
    }),
  },
};
