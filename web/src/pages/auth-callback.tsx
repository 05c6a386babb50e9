/** `/auth_callback`: the identity provider sends the browser back here with a code (PKCE flow). */
import { useEffect, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { completeOidcLogin } from '../api/auth';
import { ErrorBox, Loading } from '../components/common';

export function AuthCallbackPage() {
  const search = useSearch();
  const [, navigate] = useLocation();
  const [failure, setFailure] = useState<string | null>(null);
  useEffect(() => {
    completeOidcLogin(search).then(
      (returnTo) => navigate(returnTo, { replace: true }),
      (err: unknown) => setFailure(err instanceof Error ? err.message : String(err)),
    );
    // Runs once: the code can be exchanged only once.
  }, []);
  return failure === null ? <Loading what="your sign-in" /> : <ErrorBox title="Sign-in failed" error={failure} />;
}
