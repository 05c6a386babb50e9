/**
 * Hardening of the GraphQL endpoint: depth, cost, alias, directive and token limits
 * (graphql-armor, reporting through validation instead of throwing), the nesting limit checked
 * before parsing (nesting-guard.ts), request size limit,
 * introspection switch, CSRF prevention and the rate-limit error. `hardeningPlugins` serves
 * yoga (HTTP, and WebSocket through `getEnveloped`); `parseAndValidateForSubscription` is
 * the graphql-ws `onSubscribe` counterpart of yoga's request-level checks.
 */
import { EnvelopArmor } from '@escape.tech/graphql-armor';
import { useCSRFPrevention } from '@graphql-yoga/plugin-csrf-prevention';
import {
  GraphQLError,
  NoSchemaIntrospectionCustomRule,
  type DocumentNode,
  type GraphQLSchema,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';
import { createGraphQLError, type Plugin } from 'graphql-yoga';
import type { GraphQLHardeningConfig } from '../config/service';
import { useNestingLimit } from './nesting-guard';
import { useVariablePageSizeCost } from './variable-page-cost';

/** Headers that make a browser send a CORS preflight, so their presence proves it happened. */
export const CSRF_HEADERS = ['x-graphql-yoga-csrf', 'x-requested-with', 'authorization', 'apollo-require-preflight'];

/** Report an armor rejection as an ordinary validation error: throwing would end a WebSocket. */
const reportRejection = (context: ValidationContext | null, error: GraphQLError): void => {
  context?.reportError(error);
};

function armorPlugins(config: GraphQLHardeningConfig): Plugin[] {
  const report = { propagateOnRejection: false, onReject: [reportRejection], exposeLimits: true };
  const armor = new EnvelopArmor({
    // Introspection is exempt from depth and cost (GraphiQL's query is 15 deep); graphql's own
    // MaxIntrospectionDepthRule stops circular introspection queries.
    maxDepth: { n: config.maxDepth, ignoreIntrospection: true, flattenFragments: true, ...report },
    costLimit: { maxCost: config.maxCost, ignoreIntrospection: true, ...report },
    maxAliases: { n: config.maxAliases, ...report },
    maxDirectives: { n: config.maxDirectives, ...report },
    // Counted while parsing, where there is no validation context: it throws a parse error.
    maxTokens: { n: config.maxTokens, exposeLimits: true },
    // Suggestions leak field names; they only matter when introspection is off.
    blockFieldSuggestion: { enabled: !config.introspection },
  });
  return armor.protect().plugins as Plugin[];
}

/** Adds the no-introspection rule on every transport (yoga's own plugin covers HTTP only). */
function useIntrospectionSwitch(enabled: boolean): Plugin {
  return {
    onValidate({ addValidationRule }) {
      if (!enabled) {
        addValidationRule(NoSchemaIntrospectionCustomRule);
      }
    },
  };
}

/** The 413 answer for bodies over the limit. */
export function payloadTooLarge(maxBytes: number): GraphQLError {
  return createGraphQLError(`Request body is larger than the limit of ${maxBytes} bytes`, {
    extensions: { code: 'PAYLOAD_TOO_LARGE', http: { status: 413 } },
  });
}

/**
 * Refuse request bodies over `maxBytes`: at once when Content-Length says so, otherwise while
 * reading (chunked uploads), so an oversized body is never buffered whole.
 */
export function useRequestSizeLimit(maxBytes: number): Plugin {
  return {
    onRequestParse({ request, requestParser, setRequestParser, fetchAPI }) {
      if (requestParser === undefined || request.method === 'GET' || request.method === 'HEAD') {
        return;
      }
      const declared = Number(request.headers.get('content-length') ?? Number.NaN);
      if (Number.isFinite(declared) && declared > maxBytes) {
        throw payloadTooLarge(maxBytes);
      }
      setRequestParser(async (incoming) => {
        const body = await readLimited(incoming.body, maxBytes);
        return requestParser(
          new fetchAPI.Request(incoming.url, { method: incoming.method, headers: incoming.headers, body }),
        );
      });
    },
  };
}

async function readLimited(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
): Promise<Uint8Array<ArrayBuffer>> {
  if (body === null) {
    return new Uint8Array(0);
  }
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) {
      break;
    }
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw payloadTooLarge(maxBytes);
    }
    chunks.push(value);
  }
  const whole = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    whole.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return whole;
}

/** Every hardening plugin for yoga, in order. Error masking stays yoga's default (on). */
export function hardeningPlugins(config: GraphQLHardeningConfig): Plugin[] {
  return [
    ...(config.csrfPrevention ? [useCSRFPrevention({ requestHeaders: CSRF_HEADERS })] : []),
    useRequestSizeLimit(config.maxBodyBytes),
    useNestingLimit(config.maxNesting),
    useIntrospectionSwitch(config.introspection),
    ...armorPlugins(config),
    useVariablePageSizeCost(config.maxCost),
  ];
}

/** `maxPayload` for the `ws` server, so WebSocket messages obey the body limit. */
export function webSocketMaxPayload(config: GraphQLHardeningConfig): number {
  return config.maxBodyBytes;
}

/** The parse and validate functions of `yoga.getEnveloped(...)`. */
export interface EnvelopedParsing {
  schema: GraphQLSchema;
  parse(source: string): DocumentNode;
  validate(schema: GraphQLSchema, document: DocumentNode, rules?: readonly ValidationRule[]): readonly GraphQLError[];
}

/**
 * Parse and validate a graphql-ws operation with the same limits as HTTP. Never throws: a
 * thrown error would close the socket and every subscription on it (docs/live.md#authentication-and-protocol), so
 * failures come back as errors for this one operation.
 */
export function parseAndValidateForSubscription(
  env: EnvelopedParsing,
  query: string | undefined,
  config: GraphQLHardeningConfig,
): { document: DocumentNode } | { errors: GraphQLError[] } {
  if (query === undefined || query === '') {
    return { errors: [new GraphQLError('Must provide query string.')] };
  }
  if (Buffer.byteLength(query, 'utf8') > config.maxBodyBytes) {
    return { errors: [payloadTooLarge(config.maxBodyBytes)] };
  }
  try {
    const document = env.parse(query);
    // No rules argument: yoga's engine plugin adds graphql's specified rules and the hardening
    // plugins add theirs (introspection switch, armor); passing them again reports errors twice.
    const errors = env.validate(env.schema, document);
    return errors.length > 0 ? { errors: [...errors] } : { document };
  } catch (err) {
    return { errors: [err instanceof GraphQLError ? err : new GraphQLError('Invalid operation')] };
  }
}

/** The error for a refused control operation (lives with the limiter so the schema can raise it). */
export { rateLimitedError } from '../auth/rate-limit';
