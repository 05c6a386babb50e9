/**
 * The validators and bodies of GitHub GET answers, for conditional requests
 * (docs/github.md#reads-and-their-cost): the next GET of the same path sends `If-None-Match`
 * (or `If-Modified-Since`), and a `304 Not Modified` answer, which GitHub does not count
 * against the rate limit, reuses the stored body. Bounded by entries and by bytes; the least
 * recently used entries go first.
 */
import { LruMap } from './lru';

export interface CachedResponse {
  etag: string | null;
  lastModified: string | null;
  /** The body as GitHub sent it; parsed again for every use, so no caller shares an object. */
  text: string;
}

export interface ResponseCacheLimits {
  maxEntries: number;
  maxBytes: number;
}

export const DEFAULT_RESPONSE_CACHE_LIMITS: ResponseCacheLimits = { maxEntries: 2000, maxBytes: 32 * 1024 * 1024 };

export class ResponseCache {
  private readonly entries: LruMap<string, CachedResponse>;
  private bytes = 0;

  constructor(private readonly limits: ResponseCacheLimits = DEFAULT_RESPONSE_CACHE_LIMITS) {
    // The byte budget evicts first; the entry bound is the LRU map's own capacity.
    this.entries = new LruMap(limits.maxEntries, (_key, evicted) => {
      this.bytes -= evicted.text.length;
    });
  }

  get size(): number {
    return this.entries.size;
  }

  get byteSize(): number {
    return this.bytes;
  }

  get(path: string): CachedResponse | undefined {
    return this.entries.get(path);
  }

  /** Keep an answer that carried a validator; one larger than the whole budget is not kept. */
  store(path: string, headers: Headers, text: string): void {
    const etag = headers.get('etag');
    const lastModified = headers.get('last-modified');
    if ((etag === null && lastModified === null) || text.length > this.limits.maxBytes) {
      this.entries.delete(path);
      return;
    }
    this.entries.set(path, { etag, lastModified, text });
    this.bytes += text.length;
    while (this.bytes > this.limits.maxBytes && this.entries.size > 0) {
      this.entries.evictOldest();
    }
  }

  /** The conditional headers for a GET of the path (empty when nothing is stored). */
  static conditionalHeaders(cached: CachedResponse | undefined): Record<string, string> {
    if (!cached) {
      return {};
    }
    return cached.etag !== null ? { 'if-none-match': cached.etag } : { 'if-modified-since': cached.lastModified ?? '' };
  }
}
