/**
 * HTTP Digest authentication from the client's side (RFC 7616, which keeps RFC 2617's MD5 and
 * RFC 2069's answer without `qop`): the challenges of a `WWW-Authenticate` header and the
 * `Authorization` answering a Digest challenge, for the Gerrit connection's `auth_type: digest`
 * (docs/gerrit.md#http-authentication). Algorithms MD5, MD5-sess, SHA-256 and SHA-256-sess; quality of
 * protection `auth` (never `auth-int`, which signs the body). No I/O here.
 */
import { createHash, randomBytes } from 'node:crypto';

/** One challenge of a `WWW-Authenticate` header: its scheme and its parameters (names in lower case). */
export interface AuthChallenge {
  scheme: string;
  params: Record<string, string>;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+/;

/** The value at `text[at]`: a quoted string (escapes undone) or a token; and where it ends. */
function readValue(text: string, at: number): { value: string; end: number } {
  if (text[at] !== '"') {
    // A token, or a token68 (`abc==`) some schemes answer with.
    const match = /^[^\s,]*/.exec(text.slice(at));
    return { value: match?.[0] ?? '', end: at + (match?.[0].length ?? 0) };
  }
  let value = '';
  let i = at + 1;
  while (i < text.length && text[i] !== '"') {
    if (text[i] === '\\' && i + 1 < text.length) {
      i += 1;
    }
    value += text[i];
    i += 1;
  }
  return { value, end: i + 1 };
}

/**
 * The challenges of a `WWW-Authenticate` header (several headers joined with commas, as fetch
 * gives them): `Basic realm="x", Digest realm="y", nonce="z"` is two. Never throws; what does not
 * parse is skipped.
 */
export function parseChallenges(header: string): AuthChallenge[] {
  const challenges: AuthChallenge[] = [];
  let i = 0;
  while (i < header.length) {
    while (i < header.length && /[\s,]/.test(header[i])) {
      i += 1;
    }
    const token = TOKEN.exec(header.slice(i))?.[0];
    if (token === undefined) {
      i += 1;
      continue;
    }
    i += token.length;
    let j = i;
    while (j < header.length && header[j] === ' ') {
      j += 1;
    }
    if (header[j] === '=' && header[j + 1] !== '=' && challenges.length > 0) {
      j += 1;
      while (j < header.length && header[j] === ' ') {
        j += 1;
      }
      const { value, end } = readValue(header, j);
      challenges[challenges.length - 1].params[token.toLowerCase()] = value;
      i = end;
    } else {
      challenges.push({ scheme: token, params: {} });
    }
  }
  return challenges;
}

/** The Digest challenge of a `WWW-Authenticate` header, or null. */
export function digestChallenge(header: string | null): AuthChallenge | null {
  return parseChallenges(header ?? '').find((challenge) => challenge.scheme.toLowerCase() === 'digest') ?? null;
}

const HASHES: Record<string, string> = { MD5: 'md5', 'SHA-256': 'sha256' };

export class DigestUnsupportedError extends Error {}

/** What one answer needs besides the challenge; `cnonce` is random unless given (tests give RFC vectors). */
export interface DigestRequest {
  method: string;
  /** The request target: path and query. */
  uri: string;
  username: string;
  password: string;
  /** The nonce count of this nonce, 1 for its first use. */
  nc: number;
  cnonce?: string;
}

const quote = (value: string): string => `"${value.replace(/["\\]/g, (c) => `\\${c}`)}"`;

/**
 * The `Authorization` header answering a Digest challenge (RFC 7616 section 3.4). Throws
 * DigestUnsupportedError for an algorithm other than MD5/SHA-256 (and their `-sess`) or a
 * challenge that offers only `auth-int`.
 */
export function digestAuthorization(challenge: AuthChallenge, request: DigestRequest): string {
  const { realm = '', nonce, opaque } = challenge.params;
  if (nonce === undefined) {
    throw new DigestUnsupportedError('the Digest challenge has no nonce');
  }
  const algorithm = challenge.params.algorithm ?? 'MD5';
  const session = /-sess$/i.test(algorithm);
  const hashName = HASHES[algorithm.replace(/-sess$/i, '').toUpperCase()];
  if (hashName === undefined) {
    throw new DigestUnsupportedError(`Digest algorithm ${algorithm} is not supported (MD5 and SHA-256 are)`);
  }
  const h = (text: string) => createHash(hashName).update(text, 'utf8').digest('hex');
  const offered = challenge.params.qop?.split(',').map((qop) => qop.trim().toLowerCase());
  if (offered !== undefined && !offered.includes('auth')) {
    throw new DigestUnsupportedError(`Digest qop ${challenge.params.qop} is not supported (auth is)`);
  }
  if (session && offered === undefined) {
    throw new DigestUnsupportedError(`Digest algorithm ${algorithm} needs a qop`);
  }
  const cnonce = request.cnonce ?? randomBytes(16).toString('hex');
  const nc = request.nc.toString(16).padStart(8, '0');
  let ha1 = h(`${request.username}:${realm}:${request.password}`);
  if (session) {
    ha1 = h(`${ha1}:${nonce}:${cnonce}`);
  }
  const ha2 = h(`${request.method.toUpperCase()}:${request.uri}`);
  const response =
    offered === undefined ? h(`${ha1}:${nonce}:${ha2}`) : h(`${ha1}:${nonce}:${nc}:${cnonce}:auth:${ha2}`);
  const fields = [
    `username=${quote(request.username)}`,
    `realm=${quote(realm)}`,
    `nonce=${quote(nonce)}`,
    `uri=${quote(request.uri)}`,
    `algorithm=${algorithm}`,
    `response=${quote(response)}`,
    ...(opaque === undefined ? [] : [`opaque=${quote(opaque)}`]),
    ...(offered === undefined ? [] : ['qop=auth', `nc=${nc}`, `cnonce=${quote(cnonce)}`]),
  ];
  return `Digest ${fields.join(', ')}`;
}
