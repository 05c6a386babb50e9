/**
 * Lets several WebSocket endpoints share one HTTP server. A `ws` server attached with
 * `{server, path}` (like graphql-ws on `/graphql`) answers every upgrade for another path with
 * 400 and closes the socket, so a second endpoint cannot simply add its own `upgrade` listener.
 * `routeUpgrades` puts one router in front: upgrades it claims go to its handler, all others
 * go to the listeners that were there before, and to listeners added later, which are moved
 * behind the router as they are added.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';

type UpgradeListener = (req: IncomingMessage, socket: Duplex, head: Buffer) => void;

/**
 * Route upgrades for which `claims(req)` is true to `handle`; leave the others to the server's
 * other upgrade listeners. Returns a function that undoes the routing.
 */
export function routeUpgrades(
  server: Server,
  claims: (req: IncomingMessage) => boolean,
  handle: UpgradeListener,
): () => void {
  const others = server.listeners('upgrade') as UpgradeListener[];
  server.removeAllListeners('upgrade');
  const router: UpgradeListener = (req, socket, head) => {
    if (claims(req)) {
      handle(req, socket, head);
      return;
    }
    for (const listener of others) {
      listener.call(server, req, socket, head);
    }
  };
  const adopt = (event: string | symbol, listener: (...args: unknown[]) => void): void => {
    if (event !== 'upgrade' || (listener as unknown) === router) {
      return;
    }
    // `newListener` fires before the listener is added: take it over right after.
    queueMicrotask(() => {
      server.removeListener('upgrade', listener);
      others.push(listener as unknown as UpgradeListener);
    });
  };
  server.on('upgrade', router);
  server.on('newListener', adopt);
  return () => {
    server.off('newListener', adopt);
    server.removeListener('upgrade', router);
    for (const listener of others) {
      server.on('upgrade', listener);
    }
  };
}

/** The path of a request URL without its query string. */
export function requestPath(req: IncomingMessage): string {
  const url = req.url ?? '/';
  const index = url.indexOf('?');
  return index === -1 ? url : url.slice(0, index);
}
