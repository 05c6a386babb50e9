/**
 * Sign-in: paste a token, or use the OpenID Connect realm the server announces for the tenant
 * (authorization code with PKCE). Shows who is signed in and whether they administer the tenant.
 */
import { useState } from 'react';
import { normalizeToken, setToken, startOidcLogin, tokenClaims } from '../api/auth';
import { checkToken, rememberVerdict, useTokenVerdict } from '../api/token-check';
import { useQuery, useToken } from '../api/hooks';
import { DeploymentInfoDocument, TenantCapabilitiesDocument } from '../generated/graphql';
import { useIsAdmin } from '../admin/use-admin';

export function SignIn({ tenant }: { tenant?: string }) {
  const token = useToken();
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const [checking, setChecking] = useState(false);
  const verdict = useTokenVerdict();
  const info = useQuery(DeploymentInfoDocument, {});
  const capabilities = useQuery(TenantCapabilitiesDocument, { tenant: tenant ?? '' }, tenant === undefined);
  const realms = info.data?.info.capabilities.auth.realms ?? [];
  const realmName = capabilities.data?.tenantInfo?.defaultRealm ?? info.data?.info.capabilities.auth.defaultRealm;
  const oidc = realms.find((r) => r.driver === 'OpenIDConnect' && r.name === realmName && r.authority && r.clientId);
  const claims = tokenClaims(token);
  const admin = useIsAdmin(tenant ?? '') && tenant !== undefined;

  if (token !== null) {
    const who = claims?.preferred_username ?? claims?.name ?? claims?.sub ?? 'signed in';
    return (
      <div className="sign-in">
        <span className="who" title={admin ? 'Tenant admin' : 'Signed in'}>
          {who}
          {admin ? ' (admin)' : ''}
        </span>
        <button type="button" onClick={() => setToken(null)}>
          Sign out
        </button>
        {verdict?.accepted === false && (
          <span className="error-inline" role="alert">
            {verdict.reason}
          </span>
        )}
      </div>
    );
  }
  return (
    <div className="sign-in">
      {oidc !== undefined && (
        <button
          type="button"
          onClick={() => {
            setFailure(null);
            startOidcLogin({
              name: oidc.name,
              authority: oidc.authority ?? '',
              clientId: oidc.clientId ?? '',
              scope: oidc.scope ?? 'openid profile',
            }).catch((err: unknown) => setFailure(err instanceof Error ? err.message : String(err)));
          }}
        >
          Sign in with {oidc.name}
        </button>
      )}
      <button type="button" aria-expanded={open} onClick={() => setOpen(!open)}>
        {oidc !== undefined ? 'Paste token' : 'Sign in'}
      </button>
      {failure !== null && (
        <span className="error-inline" role="alert">
          {failure}
        </span>
      )}
      {open && (
        <form
          className="token-form"
          onSubmit={(event) => {
            event.preventDefault();
            const pasted = normalizeToken(draft);
            if (tokenClaims(pasted) === null) {
              setFailure('That is not a JSON Web Token (three base64url parts separated by dots).');
              return;
            }
            setFailure(null);
            setChecking(true);
            // The server says whether it takes the token before the page keeps it.
            void checkToken(pasted).then((answer) => {
              setChecking(false);
              if (!answer.accepted) {
                setFailure(answer.reason);
                return;
              }
              rememberVerdict(pasted, answer);
              setToken(pasted);
              setDraft('');
              setOpen(false);
            });
          }}
        >
          <label htmlFor="token-input">Token</label>
          <input
            id="token-input"
            type="password"
            autoComplete="off"
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
            placeholder="eyJ… or Bearer eyJ…"
          />
          <button type="submit" disabled={checking}>
            Use token
          </button>
        </form>
      )}
    </div>
  );
}
