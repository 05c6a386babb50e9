/**
 * How webhook bodies are read (docs/github.md#webhooks): at most `maxBodyBytes` each (a declared
 * `Content-Length` over it is refused before reading), at most `maxReading` deliveries read at
 * once and at most `maxHeldBytes` held by the bodies being read or checked (declared lengths are
 * reserved up front), so posts without end cost bounded memory. Over a limit the delivery is
 * refused at once with 413 or 503 and the connection is closed after the answer, so the rest of
 * its body is never read.
 */
import type http from 'node:http';
import type { WebhookRefusal } from '../drivers/driver';

export interface WebhookLimits {
  maxBodyBytes: number;
  maxReading: number;
  maxHeldBytes: number;
}

/** GitHub caps its payloads at 25 MB. */
export const DEFAULT_WEBHOOK_LIMITS: WebhookLimits = {
  maxBodyBytes: 25 * 1024 * 1024,
  maxReading: 8,
  maxHeldBytes: 64 * 1024 * 1024,
};

/** A body read under the limits; `release` when done with it. */
export interface WebhookBody {
  body: Buffer;
  release(): void;
}

const busy = (description: string): WebhookRefusal => ({ status: 503, error: 'ServiceUnavailable', description });

export class WebhookIntake {
  private reading = 0;
  private held = 0;

  constructor(private readonly limits: WebhookLimits = DEFAULT_WEBHOOK_LIMITS) {}

  /** A refusal, or the body with the bytes it holds reserved until `release`. */
  read(req: http.IncomingMessage): Promise<WebhookRefusal | WebhookBody> {
    const { maxBodyBytes, maxReading, maxHeldBytes } = this.limits;
    const tooLarge: WebhookRefusal = {
      status: 413,
      error: 'PayloadTooLarge',
      description: `webhook payloads are limited to ${Math.floor(maxBodyBytes / 1024 / 1024)} MB`,
    };
    const header = req.headers['content-length'];
    const declared = header === undefined ? 0 : Number(header);
    if (declared > maxBodyBytes) {
      return Promise.resolve(tooLarge);
    }
    if (this.reading >= maxReading) {
      return Promise.resolve(busy(`${this.reading} webhook deliveries are being read; try again later`));
    }
    if (this.held + declared > maxHeldBytes) {
      return Promise.resolve(busy('the webhook deliveries being read hold too much memory; try again later'));
    }
    this.reading += 1;
    let reserved = declared;
    this.held += reserved;
    let released = false;
    const release = (): void => {
      if (!released) {
        released = true;
        this.held -= reserved;
      }
    };
    return new Promise<WebhookRefusal | WebhookBody>((resolve) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const finish = (result: WebhookRefusal | WebhookBody): void => {
        req.off('data', onData);
        req.off('end', onEnd);
        req.off('error', onError);
        req.off('aborted', onError);
        this.reading -= 1;
        if (!('body' in result)) {
          req.pause(); // the rest is never read: the answer closes the connection
          release();
        }
        resolve(result);
      };
      const onData = (chunk: Buffer): void => {
        size += chunk.length;
        if (size > maxBodyBytes) {
          finish(tooLarge);
          return;
        }
        if (size > reserved) {
          if (this.held + size - reserved > maxHeldBytes) {
            finish(busy('the webhook deliveries being read hold too much memory; try again later'));
            return;
          }
          this.held += size - reserved;
          reserved = size;
        }
        chunks.push(chunk);
      };
      const onEnd = (): void => finish({ body: Buffer.concat(chunks, size), release });
      const onError = (): void =>
        finish({ status: 400, error: 'BadRequest', description: 'the webhook body was not received whole' });
      req.on('data', onData);
      req.once('end', onEnd);
      req.once('error', onError);
      req.once('aborted', onError);
    });
  }
}
