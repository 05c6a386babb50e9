/**
 * `Depends-On: <url>` across drivers (docs/gating.md#depends-on-across-drivers): a change of one
 * driver (a GitHub pull request, a Gerrit change, a GitLab merge request) may name a change of
 * any configured connection. Each connection's driver says whether a URL is one of its own
 * (`ConnectionSpec.changeOfUrl`), as the reference asks every source of the tenant; a URL no
 * connection owns is read in the naming driver's own shape with the URL's host as canonical host.
 */

/** A change named by a `Depends-On:` line: its canonical project and number. */
export interface NamedChange {
  project: string;
  number: number;
}

/** The change a URL names on one of the configured connections, or null when none owns it. */
export type ChangeOfUrl = (url: string) => NamedChange | null;

/** The URLs of a text's `Depends-On:` lines, in order. */
export function dependsOnUrlLines(text: string): string[] {
  return [...text.matchAll(/^Depends-On:\s*(https?:\/\/\S+?)\s*$/gim)].map((match) => match[1]);
}

/** The URL, or null when it does not parse. */
export function parsedUrl(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}

/**
 * The changes a text's `Depends-On:` URLs name, each once: through `changeOfUrl` (every
 * connection), else through `ownShape` (the naming driver's URL shape: a project path and a
 * number) with the URL's host as canonical host.
 */
export function changesNamedByUrls(
  text: string,
  changeOfUrl: ChangeOfUrl,
  ownShape: (url: URL) => NamedChange | null,
): NamedChange[] {
  const found: NamedChange[] = [];
  for (const line of dependsOnUrlLines(text)) {
    const url = parsedUrl(line);
    const named = changeOfUrl(line) ?? (url === null ? null : hosted(url, ownShape(url)));
    if (named !== null && !found.some((d) => d.project === named.project && d.number === named.number)) {
      found.push(named);
    }
  }
  return found;
}

/** A shape's project path under the URL's host (the canonical name of a project no connection serves). */
function hosted(url: URL, shape: NamedChange | null): NamedChange | null {
  return shape === null ? null : { project: `${url.host}/${shape.project}`, number: shape.number };
}

/**
 * The change of a URL whose host is `web`'s, by a driver's shape: `{project: <canonical host>/<path>}`;
 * null for another host or shape.
 */
export function ownedChange(
  url: URL,
  web: string,
  canonicalHostname: string,
  shape: (url: URL) => NamedChange | null,
): NamedChange | null {
  const own = parsedUrl(web);
  const found = own !== null && own.host === url.host ? shape(url) : null;
  return found === null ? null : { project: `${canonicalHostname}/${found.project}`, number: found.number };
}
