/**
 * The `static` driver: nodes are hosts listed in the provider (`nodes:`), one build per host at a
 * time. The launcher assigns the host (the store's unique index forbids a second node on it);
 * launching scans the host: with host-key checking its SSH host keys are collected with
 * `ssh-keyscan` (the executor then connects with exactly those keys), otherwise only the port is
 * probed. Cleanup has nothing to destroy: deleting the node record frees the host.
 */
import { execFile } from 'node:child_process';
import { connect } from 'node:net';
import { promisify } from 'node:util';
import type { NodeRecord } from '../../model/launcher';
import type { RuntimeLabel, RuntimeProvider } from '../providers';
import type { LaunchOutcome, NodeDriver } from './driver';

const run = promisify(execFile);
const PROBE_TIMEOUT_MS = 10_000;

function probePort(host: string, port: number, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`timed out connecting to ${host}:${port}`));
    }, timeoutMs);
    socket.once('connect', () => {
      clearTimeout(timer);
      // Closed outright: after a half-close (`end()`) the socket waits for the server to close
      // its side, which it never sees unless it reads, so the handle would stay open for good
      // (an SSH server sends its banner and waits for ours).
      socket.destroy();
      resolve();
    });
    socket.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
  });
}

export class StaticDriver implements NodeDriver {
  async launch(node: NodeRecord, provider: RuntimeProvider, label: RuntimeLabel): Promise<LaunchOutcome> {
    const host = provider.hosts.find((h) => h.name === node.externalId);
    if (!host) {
      return {
        kind: 'failed',
        reason: `Host ${node.externalId ?? '(none)'} is not configured in provider ${provider.name}`,
        temporary: false,
      };
    }
    const timeoutMs = Math.min(PROBE_TIMEOUT_MS, label.bootTimeout * 1000);
    const attributes = {
      connectionType: 'ssh',
      host: host.name,
      interfaceIp: host.name,
      port: host.port,
      username: host.username,
    };
    try {
      await probePort(host.name, host.port, timeoutMs);
      if (!(host.hostKeyChecking && label.hostKeyChecking)) {
        return { kind: 'ready', attributes: { ...attributes, data: { hostKeys: [] } } };
      }
      const { stdout } = await run(
        'ssh-keyscan',
        ['-p', String(host.port), '-T', String(Math.ceil(timeoutMs / 1000)), host.name],
        { timeout: timeoutMs + 1000 },
      );
      const hostKeys = stdout
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => line !== '' && !line.startsWith('#'));
      if (hostKeys.length === 0) {
        return { kind: 'failed', reason: `No SSH host keys found on ${host.name}:${host.port}`, temporary: false };
      }
      return { kind: 'ready', attributes: { ...attributes, data: { hostKeys } } };
    } catch (err) {
      return {
        kind: 'failed',
        reason: `Node scan of ${host.name}:${host.port} failed: ${err instanceof Error ? err.message : String(err)}`,
        temporary: false,
      };
    }
  }

  async cleanup(): Promise<void> {
    // Nothing to destroy on a static host.
  }
}
