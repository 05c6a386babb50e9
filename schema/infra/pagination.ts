/**
 * Keyset-paginated connections over newest-first lists. Cursors encode the sort key of a row,
 * so pages stay stable while new builds arrive; `offset` exists for the REST layer's `skip`.
 */
import { GraphQLError } from 'graphql';
import type { KeysetPage } from '../../src/store/repositories/history-query';

/** Page size when neither `first` nor `last` is given. */
export const DEFAULT_PAGE_SIZE = 50;
/** Largest page; bigger `first`/`last` values are clamped to it. */
export const MAX_PAGE_SIZE = 1000;

/** Text shared by the descriptions of every history connection field. */
export const PAGINATION_DESCRIPTION =
  `Newest first. Pages hold ${DEFAULT_PAGE_SIZE} records by default and at most ${MAX_PAGE_SIZE} ` +
  '(larger `first`/`last` are clamped). Prefer the keyset cursors (`after`/`before`): they stay stable ' +
  'while new records arrive and cost the same on every page; `offset` is for REST-style paging.';

export interface ConnectionArgs {
  first?: number | null;
  last?: number | null;
  after?: string | null;
  before?: string | null;
  offset?: number | null;
}

/** Turns a row's sort key into an opaque cursor and back. */
export interface CursorCodec<Cursor> {
  encode(cursor: Cursor): string;
  decode(value: string): Cursor;
}

export interface KeysetConnection<Node> {
  edges: { cursor: string; node: Node }[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
  /** Counted only when the client selects `totalCount`. */
  totalCount: () => Promise<number>;
}

/** Cursor over a unique id column. */
export const idCursor: CursorCodec<number> = {
  encode: (id) => Buffer.from(`id:${id}`).toString('base64url'),
  decode: (value) => {
    const match = /^id:(\d{1,15})$/.exec(Buffer.from(value, 'base64url').toString());
    if (!match) {
      throw invalidCursor(value);
    }
    return Number(match[1]);
  },
};

/** Cursor over (end time, id), the order of build times. */
export const endTimeCursor: CursorCodec<{ endTime: Date; id: number }> = {
  encode: ({ endTime, id }) => Buffer.from(`end:${endTime.getTime()}:${id}`).toString('base64url'),
  decode: (value) => {
    const match = /^end:(-?\d{1,15}):(\d{1,15})$/.exec(Buffer.from(value, 'base64url').toString());
    if (!match) {
      throw invalidCursor(value);
    }
    return { endTime: new Date(Number(match[1])), id: Number(match[2]) };
  },
};

/** The store page for connection arguments; `limit` asks for one extra row to detect more pages. */
export function keysetPageFromArgs<Cursor>(
  args: ConnectionArgs,
  codec: CursorCodec<Cursor>,
): { page: KeysetPage<Cursor>; size: number } {
  if (args.first != null && args.last != null) {
    throw badInput('Pass either `first` or `last`, not both.');
  }
  for (const [name, value] of [
    ['first', args.first],
    ['last', args.last],
    ['offset', args.offset],
  ] as const) {
    if (value != null && value < 0) {
      throw badInput(`\`${name}\` must not be negative.`);
    }
  }
  const fromEnd = args.last != null;
  const requested = fromEnd ? args.last : args.first;
  const size = Math.min(requested ?? DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
  return {
    size,
    page: {
      after: args.after != null ? codec.decode(args.after) : undefined,
      before: args.before != null ? codec.decode(args.before) : undefined,
      limit: size + 1,
      offset: args.offset ?? 0,
      fromEnd,
    },
  };
}

/**
 * Resolves a connection: fetches one page (plus one row to learn whether more exist) and
 * defers the count until `totalCount` is selected.
 */
export async function resolveKeysetConnection<Node, Cursor>(options: {
  args: ConnectionArgs;
  codec: CursorCodec<Cursor>;
  cursorOf: (node: Node) => Cursor;
  fetch: (page: KeysetPage<Cursor>) => Promise<Node[]>;
  count: () => Promise<number>;
  /** Starts loading the page's relations before GraphQL walks it (schema/infra/prefetch.ts). */
  prefetch?: (nodes: readonly Node[]) => Promise<void>;
}): Promise<KeysetConnection<Node>> {
  const { page, size } = keysetPageFromArgs(options.args, options.codec);
  const rows = await options.fetch(page);
  const more = rows.length > size;
  // Rows come newest first; the surplus row sits at the far end of the direction of travel.
  const nodes = more ? (page.fromEnd ? rows.slice(rows.length - size) : rows.slice(0, size)) : rows;
  await options.prefetch?.(nodes);
  const edges = nodes.map((node) => ({ cursor: options.codec.encode(options.cursorOf(node)), node }));
  let counted: Promise<number> | undefined;
  return {
    edges,
    pageInfo: {
      hasNextPage: page.fromEnd ? page.before !== undefined || page.offset > 0 : more,
      hasPreviousPage: page.fromEnd ? more : page.after !== undefined || page.offset > 0,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges[edges.length - 1]?.cursor ?? null,
    },
    totalCount: () => {
      counted ??= options.count();
      return counted;
    },
  };
}

/** A list keyed and ordered by database id, newest first: where its pages and its count come from. */
export interface IdKeyedList<Node> {
  fetch: (page: KeysetPage<number>) => Promise<Node[]>;
  count: () => Promise<number>;
  /** Starts loading the page's relations before GraphQL walks it. */
  prefetch?: (nodes: readonly Node[]) => Promise<void>;
}

/** `resolveKeysetConnection` over a list keyed by database id (builds, buildsets, events, nodes, requests). */
export function resolveIdConnection<Node extends { id: number }>(
  args: ConnectionArgs,
  list: IdKeyedList<Node>,
): Promise<KeysetConnection<Node>> {
  return resolveKeysetConnection({ args, codec: idCursor, cursorOf: (node: Node) => node.id, ...list });
}

/** Parses the local part of a global id that wraps a database id. */
export function parseDatabaseId(id: string): number {
  if (!/^\d{1,15}$/.test(id)) {
    throw badInput(`Invalid id "${id}".`);
  }
  return Number(id);
}

function invalidCursor(value: string): GraphQLError {
  return badInput(`Invalid cursor "${value}".`);
}

function badInput(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'BAD_USER_INPUT' } });
}
