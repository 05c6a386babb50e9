/**
 * The one place drivers are registered (docs/development.md#drivers). The configuration loader
 * and the gating roles find a driver here by name; nothing else lists them.
 */
import type { ConnectionSettings, Driver } from './driver';
import { gerritDriver } from './gerrit';
import { gitDriver } from './git';
import { githubDriver } from './github';
import { gitlabDriver } from './gitlab';
import { mqttDriver } from './mqtt';
import { smtpDriver } from './smtp';
import { timerDriver } from './timer';
import { zuulDriver } from './zuul';

/** Every driver, in the order messages list them. */
export const DRIVERS: readonly Driver[] = [
  gitDriver,
  githubDriver,
  gerritDriver,
  timerDriver,
  zuulDriver,
  smtpDriver,
  mqttDriver,
  gitlabDriver,
];

/** The schemas of the drivers' connections (the service configuration's `connections`, src/config/service-sections.ts). */
export const DRIVER_CONNECTIONS = [
  gitDriver.connection.schema,
  githubDriver.connection.schema,
  gerritDriver.connection.schema,
  timerDriver.connection.schema,
  smtpDriver.connection.schema,
  mqttDriver.connection.schema,
  gitlabDriver.connection.schema,
] as const;

const BY_NAME = new Map(DRIVERS.map((driver) => [driver.name, driver]));

/** The driver of that name, or undefined (launcher connections, `local` and `static`, are not drivers). */
export function driverNamed(name: string): Driver | undefined {
  return BY_NAME.get(name);
}

/** The driver of a connection's settings, if it is a driver's. */
export function driverOf(settings: ConnectionSettings): Driver | undefined {
  return driverNamed(settings.driver);
}
