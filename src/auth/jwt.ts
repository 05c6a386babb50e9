/**
 * Compact JWS (JWT) encoding, decoding and signature checks with node:crypto only. Claim
 * validation lives in `authenticator.ts`; this module knows nothing about issuers or tenants.
 */
import { constants, createHmac, createSign, createVerify, timingSafeEqual, type KeyObject } from 'node:crypto';
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
  /** `base64url(header) + "." + base64url(payload)`: the bytes the signature covers. */
  signingInput: string;
  signature: Buffer;
}

/** The key a signature is checked with: a shared secret (HS*) or a public key. */
export type VerificationKey = { kind: 'secret'; secret: Buffer } | { kind: 'public'; key: KeyObject };

interface AlgorithmSpec {
  family: 'hmac' | 'rsa' | 'rsa-pss' | 'ec';
  hash: 'sha256' | 'sha384' | 'sha512';
}

const ALGORITHMS: Readonly<Record<JwtAlgorithm, AlgorithmSpec>> = {
  HS256: { family: 'hmac', hash: 'sha256' },
  RS256: { family: 'rsa', hash: 'sha256' },
  RS384: { family: 'rsa', hash: 'sha384' },
  RS512: { family: 'rsa', hash: 'sha512' },
  PS256: { family: 'rsa-pss', hash: 'sha256' },
  ES256: { family: 'ec', hash: 'sha256' },
  ES384: { family: 'ec', hash: 'sha384' },
};

/** True when `alg` names an algorithm Sluice can verify. */
export function isSupportedAlgorithm(alg: unknown): alg is JwtAlgorithm {
  return typeof alg === 'string' && (SUPPORTED_ALGORITHMS as readonly string[]).includes(alg);
}

/** base64url without padding (RFC 7515 §2). */
export function base64UrlEncode(data: Buffer | string): string {
  return Buffer.from(data).toString('base64url');
}

function base64UrlDecode(part: string): Buffer | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(part)) {
    return undefined;
  }
  return Buffer.from(part, 'base64url');
}

function parseJsonObject(bytes: Buffer | undefined): JsonObject | undefined {
  if (bytes === undefined) {
    return undefined;
  }
  try {
    const value: unknown = JSON.parse(bytes.toString('utf8'));
    return isPlainObject(value) ? (value as JsonObject) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Split and parse a compact JWS without verifying it.
 * @throws AuthFailure `AuthTokenUndecodedException` when it is not a well-formed JWT.
 */
export function decodeJwt(token: string): DecodedJwt {
  const parts = token.split('.');
  if (parts.length !== 3) {
    throw tokenFailure('AuthTokenUndecodedException');
  }
  const [headerPart, payloadPart, signaturePart] = parts;
  const header = parseJsonObject(base64UrlDecode(headerPart));
  const payload = parseJsonObject(base64UrlDecode(payloadPart));
  const signature = base64UrlDecode(signaturePart);
  if (header === undefined || payload === undefined || signature === undefined) {
    throw tokenFailure('AuthTokenUndecodedException');
  }
  return { header, payload, signingInput: `${headerPart}.${payloadPart}`, signature };
}

/**
 * Check the signature of a decoded token with `alg` (already checked against what the
 * authenticator allows). Returns false on any mismatch, including a key of the wrong type.
 */
export function verifySignature(decoded: DecodedJwt, alg: JwtAlgorithm, key: VerificationKey): boolean {
  const spec = ALGORITHMS[alg];
  if (spec.family === 'hmac') {
    if (key.kind !== 'secret') {
      return false;
    }
    const expected = createHmac(spec.hash, key.secret).update(decoded.signingInput).digest();
    return expected.length === decoded.signature.length && timingSafeEqual(expected, decoded.signature);
  }
  if (key.kind !== 'public' || !keyFitsFamily(key.key, spec.family)) {
    return false;
  }
  try {
    const verifier = createVerify(spec.hash).update(decoded.signingInput);
    return verifier.verify(publicKeyOptions(key.key, spec.family), decoded.signature);
  } catch {
    return false;
  }
}

function keyFitsFamily(key: KeyObject, family: AlgorithmSpec['family']): boolean {
  const type = key.asymmetricKeyType;
  if (family === 'ec') {
    return type === 'ec';
  }
  return type === 'rsa' || (family === 'rsa-pss' && type === 'rsa-pss');
}

function publicKeyOptions(key: KeyObject, family: AlgorithmSpec['family']) {
  if (family === 'ec') {
    // JWS carries the raw r||s form, not DER.
    return { key, dsaEncoding: 'ieee-p1363' as const };
  }
  if (family === 'rsa-pss') {
    return { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 };
  }
  return { key };
}

/** The key a token is signed with (for `sluice token create` and tests). */
export type SigningKey = { kind: 'secret'; secret: Buffer } | { kind: 'private'; key: KeyObject };

/** Encode and sign a JWT. `header.alg` is set from `alg`. */
export function signJwt(payload: JsonObject, alg: JwtAlgorithm, key: SigningKey, header: JsonObject = {}): string {
  const spec = ALGORITHMS[alg];
  const signingInput = `${base64UrlEncode(JSON.stringify({ ...header, alg, typ: 'JWT' }))}.${base64UrlEncode(JSON.stringify(payload))}`;
  let signature: Buffer;
  if (spec.family === 'hmac') {
    if (key.kind !== 'secret') {
      throw new Error(`${alg} needs a shared secret`);
    }
    signature = createHmac(spec.hash, key.secret).update(signingInput).digest();
  } else {
    if (key.kind !== 'private') {
      throw new Error(`${alg} needs a private key`);
    }
    const options =
      spec.family === 'ec'
        ? { key: key.key, dsaEncoding: 'ieee-p1363' as const }
        : spec.family === 'rsa-pss'
          ? { key: key.key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: 32 }
          : { key: key.key };
    signature = createSign(spec.hash).update(signingInput).sign(options);
  }
  return `${signingInput}.${base64UrlEncode(signature)}`;
}
