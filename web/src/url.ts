/** Filters and paging live in the URL's query string, so every view can be shared as a link. */
import { useCallback, useMemo } from 'react';
import { useLocation, useSearch } from 'wouter';

export interface UrlParams {
  /** Every value of `name` (repeated parameters are OR'ed filters). */
  all(name: string): string[];
  get(name: string): string | null;
  /** Replace the named parameters (null or [] removes one) and navigate. */
  set(changes: Record<string, string | string[] | null>, options?: { replace?: boolean }): void;
  toString(): string;
}

export function useUrlParams(): UrlParams {
  const search = useSearch();
  const [location, navigate] = useLocation();
  const params = useMemo(() => new URLSearchParams(search), [search]);
  const set = useCallback(
    (changes: Record<string, string | string[] | null>, options: { replace?: boolean } = {}) => {
      const next = new URLSearchParams(search);
      for (const [name, value] of Object.entries(changes)) {
        next.delete(name);
        for (const v of value === null ? [] : Array.isArray(value) ? value : [value]) {
          if (v !== '') {
            next.append(name, v);
          }
        }
      }
      const query = next.toString();
      navigate(query === '' ? location : `${location}?${query}`, { replace: options.replace });
    },
    [search, location, navigate],
  );
  return useMemo(
    () => ({ all: (n) => params.getAll(n), get: (n) => params.get(n), set, toString: () => params.toString() }),
    [params, set],
  );
}

/** Path of a page of a tenant. */
export function tenantPath(tenant: string, page: string): string {
  return `/t/${encodeURIComponent(tenant)}/${page}`;
}

/**
 * A provider's name from its canonical name (`<url-quoted project>/<url-quoted name>`, what nodes
 * carry), or the name itself.
 */
export function providerName(provider: string): string {
  const last = provider.slice(provider.lastIndexOf('/') + 1);
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

/** The page of a provider; `provider` is its name or canonical name. */
export function providerPath(tenant: string, provider: string): string {
  return tenantPath(tenant, `provider/${encodeURIComponent(providerName(provider))}`);
}
