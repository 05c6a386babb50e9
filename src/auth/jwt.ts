/**
 * JWT decoding and signature checks with the jose library. Claim validation lives in
 * `authenticator.ts` (its checks and their order follow the reference); this module knows nothing
 * about issuers or tenants.
 */
import type { KeyObject } from 'node:crypto';
import { compactVerify, decodeJwt as decodePayload, decodeProtectedHeader, SignJWT } from 'jose';
import { tokenFailure } from './errors';
import { isPlainObject } from '../model/value-checks';

/** Signature algorithms Sluice verifies. `none` is deliberately absent. */
export const SUPPORTED_ALGORITHMS = ['HS256', 'RS256', 'RS384', 'RS512', 'PS256', 'ES256', 'ES384'] as const;
export type JwtAlgorithm = (typeof SUPPORTED_ALGORITHMS)[number];

export type JsonObject = Record<string, unknown>;

/** A token split into its parts; nothing has been verified yet. */
export interface DecodedJwt {
  header: JsonObject & { alg?: unknown; kid?: unknown };
  payload: JsonObject;
  /** The compact token itself, which the signature check reads. */
  token: string;
}

/** The key a signature is checked with: a shared secret (HS*) or a public key. */
export type VerificationKey = { kind: 'secret'; secret: Buffer } | { kind: 'public'; key: KeyObject };

/** True when `alg` names an algorithm Sluice can verify. */
export function isSupportedAlgorithm(alg: unknown): alg is JwtAlgorithm {
  return typeof alg === 'string' && (SUPPORTED_ALGORITHMS as readonly string[]).includes(alg);
}

/** Each of the three parts: base64url without padding (RFC 7515 §2), the signature possibly empty. */
const PART = /^[A-Za-z0-9_-]*$/;

/**
 * Split and parse a compact JWS without verifying it.
 * @throws AuthFailure `AuthTokenUndecodedException` when it is not a well-formed JWT.
 */
export function decodeJwt(token: string): DecodedJwt {
  const parts = token.split('.');
  if (parts.length !== 3 || !parts.every((part) => PART.test(part))) {
    throw tokenFailure('AuthTokenUndecodedException');
  }
  try {
    const header = decodeProtectedHeader(token) as JsonObject;
    const payload = decodePayload(token) as JsonObject;
    if (!isPlainObject(header) || !isPlainObject(payload)) {
      throw new Error('not a JSON object');
    }
    return { header, payload, token };
  } catch {
    throw tokenFailure('AuthTokenUndecodedException');
  }
}

/**
 * Check the signature of a decoded token with `alg` (already checked against what the
 * authenticator allows). Resolves false on any mismatch, including a key of the wrong type.
 */
export async function verifySignature(decoded: DecodedJwt, alg: JwtAlgorithm, key: VerificationKey): Promise<boolean> {
  if ((alg === 'HS256') !== (key.kind === 'secret')) {
    return false;
  }
  try {
    await compactVerify(decoded.token, key.kind === 'secret' ? new Uint8Array(key.secret) : key.key, {
      algorithms: [alg],
    });
    return true;
  } catch {
    return false;
  }
}

/** An HS256 token of `payload` signed with `secret` (`sluice token create`). */
export function signHs256(payload: JsonObject, secret: Buffer): Promise<string> {
  return new SignJWT(payload).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(new Uint8Array(secret));
}
