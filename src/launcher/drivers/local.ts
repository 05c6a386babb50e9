/**
 * The `local` driver: a node is a directory on the executor host (`<root>/nodes/<node uuid>`),
 * seeded from the label's image when it has one (a `tar` image is unpacked into the directory;
 * any other format is copied in as `image.<format>`).
 */
import { execFile } from 'node:child_process';
import { copyFile, mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { NodeRecord } from '../../model/launcher';
import type { RuntimeLabel, RuntimeProvider } from '../providers';
import type { BootImage, LaunchOutcome, NodeDriver } from './driver';

const run = promisify(execFile);

/** Directory of a local node's workspace. */
export function localNodePath(root: string, nodeUuid: string): string {
  return path.join(root, 'nodes', nodeUuid);
}

export class LocalDriver implements NodeDriver {
  async launch(
    node: NodeRecord,
    provider: RuntimeProvider,
    _label: RuntimeLabel,
    image: BootImage | null,
  ): Promise<LaunchOutcome> {
    if (provider.root === null) {
      return { kind: 'failed', reason: `Provider ${provider.name} has no workspace root`, temporary: false };
    }
    const dir = localNodePath(provider.root, node.uuid);
    try {
      await mkdir(dir, { recursive: true });
      if (image !== null) {
        if (image.format === 'tar') {
          await run('tar', ['-xf', image.path, '-C', dir]);
        } else {
          await copyFile(image.path, path.join(dir, `image.${image.format}`));
        }
      }
    } catch (err) {
      await rm(dir, { recursive: true, force: true });
      return {
        kind: 'failed',
        reason: `Unable to prepare the node workspace: ${err instanceof Error ? err.message : String(err)}`,
        temporary: false,
      };
    }
    return {
      kind: 'ready',
      attributes: {
        connectionType: 'local',
        externalId: node.uuid,
        host: 'localhost',
        interfaceIp: '127.0.0.1',
        data: { path: dir },
      },
    };
  }

  async cleanup(node: NodeRecord): Promise<void> {
    const dir = node.data.path;
    if (typeof dir === 'string' && dir !== '') {
      await rm(dir, { recursive: true, force: true });
    }
  }
}
