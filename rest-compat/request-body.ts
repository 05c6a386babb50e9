/**
 * JSON request bodies (docs/rest.md#request-order-and-bodies): a body must be `application/json` (415 otherwise),
 * parse as a JSON object (400 `Invalid JSON document` otherwise), hold no refused string and no container
 * nested too deep (docs/rest.md#input-rules; 400 naming the field) and carry the keys the endpoint requires (400
 * naming the first missing key).
 */
import type Koa from 'koa';
import { jsonProblem } from '../src/model/value-checks';
import { RestError, badRequest } from './errors';
import type { BodySpec } from './route';

const MAX_BODY_BYTES = 1024 * 1024;

/** Reads and checks the body of `ctx` against `spec`; `{}` when the endpoint declares no body. */
export async function readJsonBody(ctx: Koa.Context, spec: BodySpec | undefined): Promise<Record<string, unknown>> {
  if (!spec) {
    return {};
  }
  const text = await readText(ctx);
  if (text.length === 0 && !spec.required) {
    return {};
  }
  if (!ctx.is('application/json', 'text/javascript')) {
    throw new RestError(
      415,
      'UnsupportedMediaType',
      'Expected an entity of content type application/json, text/javascript',
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw badRequest('Invalid JSON document');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw badRequest('Invalid JSON document');
  }
  const body = parsed as Record<string, unknown>;
  const found = jsonProblem(body, (key) => (spec.freeText?.includes(key) ? 'free-text' : 'identifier'));
  if (found !== null) {
    throw badRequest(`Body field ${found.path} ${found.problem}`);
  }
  const required = Array.isArray(spec.schema.required) ? (spec.schema.required as string[]) : [];
  for (const key of required) {
    if (!Object.hasOwn(body, key)) {
      throw badRequest(`Invalid request body: missing ${key}`);
    }
  }
  return body;
}

async function readText(ctx: Koa.Context): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) {
      throw new RestError(413, 'PayloadTooLarge', `Request bodies are limited to ${MAX_BODY_BYTES} bytes`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
