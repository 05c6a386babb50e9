/**
 * Whether the server accepts a token: asked once per token (root `authorizations`), so a refusal
 * (an expired, foreign or mangled token) is said in the page rather than only in the browser's
 * console (docs/dashboard.md#signing-in).
 */
import { useSyncExternalStore } from 'react';
import { request, RequestError } from './client';
import { currentToken, onTokenChange } from './auth';
import { describeError } from './errors';
import { TokenCheckDocument } from '../generated/graphql';

export type TokenVerdict = { accepted: true } | { accepted: false; reason: string };

/** Ask the server about `token`; a refusal carries the server's words. */
export async function checkToken(token: string): Promise<TokenVerdict> {
  try {
    await request(TokenCheckDocument, { tenant: null }, undefined, token);
    return { accepted: true };
  } catch (err) {
    const error = err instanceof RequestError ? err : new RequestError(String(err));
    if (error.code === 'UNAUTHENTICATED' || error.code === 'HTTP_401') {
      return { accepted: false, reason: `The server refused the token: ${error.message}` };
    }
    return { accepted: false, reason: `The token could not be checked: ${describeError(error)}` };
  }
}

const verdicts = new Map<string, TokenVerdict>();
const asked = new Set<string>();
const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const stop = onTokenChange(listener);
  return () => {
    listeners.delete(listener);
    stop();
  };
}

/** Record what the server said of a token (the sign-in form checks before keeping one). */
export function rememberVerdict(token: string, verdict: TokenVerdict): void {
  verdicts.set(token, verdict);
  asked.add(token);
  listeners.forEach((listener) => listener());
}

/** The server's verdict on the signed-in token; undefined while unknown (or signed out). */
export function useTokenVerdict(): TokenVerdict | undefined {
  const token = useSyncExternalStore(onTokenChange, currentToken);
  const verdict = useSyncExternalStore(subscribe, () => (token === null ? undefined : verdicts.get(token)));
  if (token !== null && !asked.has(token)) {
    asked.add(token);
    void checkToken(token).then((answer) => rememberVerdict(token, answer));
  }
  return verdict;
}
