/**
 * The driver registry (docs/development.md#drivers): every driver is registered once, each
 * connection schema belongs to its driver, and the configuration loader and the engine name no
 * driver of a connection (they ask the registry).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { connection } from '../../../src/config/service-sections';
import { DRIVER_CONNECTIONS, DRIVERS, driverNamed } from '../../../src/drivers/registry';

const ROOT = path.resolve(__dirname, '../../..');

function sources(folder: string): string[] {
  return readdirSync(path.join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => path.join(folder, file));
}

describe('driver registry', () => {
  it('registers each driver once, by the name of its folder', () => {
    const names = DRIVERS.map((driver) => driver.name);
    expect(new Set(names).size).toBe(names.length);
    const folders = readdirSync(path.join(ROOT, 'src/drivers'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect([...names].sort()).toEqual([...folders].sort());
    expect(names.every((name) => driverNamed(name)?.name === name)).toBe(true);
    expect(driverNamed('local')).toBeUndefined();
  });

  it("lists every driver's connection schema, whose `driver` is the driver's name", () => {
    const withConnections = DRIVERS.filter((driver) => driver.connection !== undefined);
    expect(DRIVER_CONNECTIONS.map((schema) => schema.shape.driver.value)).toEqual(
      withConnections.map((driver) => driver.name),
    );
    withConnections.forEach((driver, index) => expect(driver.connection?.schema).toBe(DRIVER_CONNECTIONS[index]));
  });

  it('parses connections with the schema of their driver', () => {
    expect(connection.safeParse({ driver: 'git', baseurl: '/srv/git' }).success).toBe(true);
    expect(connection.safeParse({ driver: 'git' }).success).toBe(false);
    expect(connection.safeParse({ driver: 'timer' }).success).toBe(true);
    const unknown = connection.safeParse({ driver: 'nosuch' });
    expect(unknown.success ? '' : unknown.error.issues[0].message).toBe(
      'unknown connection driver (supported: git, github, gerrit, timer, smtp, mqtt, gitlab, local, static)',
    );
  });

  it.each(['src/engine', 'src/config'])('%s names no driver of a connection', (folder) => {
    const names = DRIVERS.filter((driver) => driver.connection !== undefined && !driver.implicit).map(
      (driver) => driver.name,
    );
    const literal = new RegExp(`(['"\`])(${names.join('|')})\\1`);
    const naming = sources(folder).filter((file) => literal.test(readFileSync(path.join(ROOT, file), 'utf8')));
    expect(naming).toEqual([]);
  });
});
