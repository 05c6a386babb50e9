/**
 * Rate limiting of control operations (enqueue, dequeue, promote, ...) per caller and tenant:
 * a token bucket per key, refilled continuously, with an injectable clock.
 */
import { GraphQLError } from 'graphql';
import type { Principal } from './principal';

export interface TokenBucketOptions {
  /** Operations allowed in a burst (the bucket's capacity). */
  burst: number;
  /** Sustained refill rate. */
  perMinute: number;
  now?: () => Date;
  /** Buckets kept before idle (full) ones are dropped. */
  maxKeys?: number;
}

export type RateDecision = { allowed: true; remaining: number } | { allowed: false; retryAfterSeconds: number };

interface Bucket {
  tokens: number;
  updated: number;
}

export class TokenBucketLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly now: () => Date;
  private readonly perMs: number;

  constructor(private readonly options: TokenBucketOptions) {
    this.now = options.now ?? (() => new Date());
    this.perMs = options.perMinute / 60_000;
  }

  /** Spend one token from `key`'s bucket, or say how long until one is available. */
  take(key: string): RateDecision {
    const now = this.now().getTime();
    const bucket = this.refilled(this.buckets.get(key), now);
    if (bucket.tokens < 1) {
      this.buckets.set(key, bucket);
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / this.perMs / 1000)) };
    }
    bucket.tokens -= 1;
    this.buckets.set(key, bucket);
    this.prune(now);
    return { allowed: true, remaining: Math.floor(bucket.tokens) };
  }

  private refilled(bucket: Bucket | undefined, now: number): Bucket {
    if (bucket === undefined) {
      return { tokens: this.options.burst, updated: now };
    }
    const tokens = Math.min(this.options.burst, bucket.tokens + Math.max(0, now - bucket.updated) * this.perMs);
    return { tokens, updated: now };
  }

  /** Drop buckets that have refilled completely: they hold no information. */
  private prune(now: number): void {
    if (this.buckets.size <= (this.options.maxKeys ?? 10_000)) {
      return;
    }
    for (const [key, bucket] of this.buckets) {
      if (this.refilled(bucket, now).tokens >= this.options.burst) {
        this.buckets.delete(key);
      }
    }
  }
}

/** The bucket key of a caller's control operations on a tenant. */
export function controlRateLimitKey(principal: Principal, tenant: string): string {
  return JSON.stringify([principal.authenticator.name, principal.subject, tenant]);
}

/** The error for a refused control operation: HTTP 429 with Retry-After, GraphQL code RATE_LIMITED. */
export function rateLimitedError(retryAfterSeconds: number): GraphQLError {
  return new GraphQLError(`Too many control operations; retry in ${retryAfterSeconds} s`, {
    extensions: {
      code: 'RATE_LIMITED',
      retryAfter: retryAfterSeconds,
      http: { status: 429, headers: { 'Retry-After': String(retryAfterSeconds) } },
    },
  });
}
