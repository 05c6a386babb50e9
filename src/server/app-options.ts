/** What `buildApp()` accepts: the configuration and the parts tests replace. */
import type { TokenAuthenticator } from '../auth/authenticator';
import type { AccessPolicySource } from '../auth/gate';
import type { KeySizes } from '../auth/keys/key-manager';
import type { ServiceConfig } from '../config/service';
import type { TimerClock } from '../engine/ports/clock';
import type { AnsibleToolchain, ToolchainOptions } from '../executor/ansible/toolchain';
import type { Engine } from '../engine/engine';
import type { Database } from '../store/database';
import type { TenantCatalog } from '../../schema/infra/context';
import type { ConsoleSource } from '../../schema/console-log';
import type { EventBus } from '../../subscriptions/bus/event-bus';
import type { LiveHubOptions } from '../../subscriptions/live/live-hub';
import type { WebSocketOptions } from '../../subscriptions/ws-server';
import type { Logger } from './logger';

export interface AppOptions {
  config: ServiceConfig;
  /** An already-open database (tests); otherwise one is opened from the configuration. */
  database?: Database;
  logger?: Logger;
  now?: () => Date;
  /** The timers of the drivers' own polls (tests move them on; default: the system clock). */
  timers?: TimerClock;
  /** Heartbeat period of this process's component record, in ms. */
  heartbeatInterval?: number;
  /** Which tenants exist (tests); by default a LayoutManager loads the tenant file, if one is configured. */
  tenants?: TenantCatalog;
  /** The event bus (owned and closed by the app); defaults to `createEventBus(config)`. */
  bus?: EventBus;
  /** Where `consoleLog` finds build output (the executor's console resolver); defaults to this process's executor. */
  console?: ConsoleSource;
  /**
   * The gating engine, publishing its deltas to `engineEventBusOver(bus)`. When absent and a
   * tenant file is loaded, the app runs its own engine, executor worker and git pollers (roles.ts).
   */
  engine?: Engine;
  /** Environment passed (allow-listed) to job steps of the built-in executor; defaults to `process.env`. */
  environment?: Record<string, string | undefined>;
  /** Makes the built-in executor's toolchain (tests); default: `AnsibleToolchain`. */
  toolchain?: (options: ToolchainOptions) => AnsibleToolchain;
  /** Token verification; defaults to the authenticators of `config.auth`. */
  authenticator?: TokenAuthenticator;
  /** Access policies; default: the tenant file's rules (a reloading layout manager passes its own). */
  policies?: () => AccessPolicySource;
  /** Live fan-out tuning (status coalescing interval, replay and per-subscriber buffers). */
  live?: Partial<LiveHubOptions>;
  /** graphql-ws limits (keep-alive, init timeout, operations per connection, message size). */
  webSocket?: WebSocketOptions;
  /** RSA sizes of keys created by this process (tests; default: the reference's sizes). */
  keySizes?: Partial<KeySizes>;
}

/** Background work that must stop on shutdown. */
export interface BackgroundTask {
  name: string;
  /** `deadline`: when the whole shutdown must be over (epoch milliseconds). */
  stop(deadline: number): Promise<void>;
}
