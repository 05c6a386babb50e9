/** What a launcher driver does for a node: launch it and, when it is no longer needed, clean it up. */
import type { NodeRecord } from '../../model/launcher';
import type { NodeUpdate } from '../../store/repositories/nodes';
import type { RuntimeLabel, RuntimeProvider } from '../providers';

/** The image file a node boots from (a ready upload on the provider's endpoint). */
export interface BootImage {
  uploadUuid: string;
  format: string;
  path: string;
}

export type LaunchOutcome =
  { kind: 'ready'; attributes: NodeUpdate } | { kind: 'failed'; reason: string; temporary: boolean };

export interface NodeDriver {
  launch(
    node: NodeRecord,
    provider: RuntimeProvider,
    label: RuntimeLabel,
    image: BootImage | null,
  ): Promise<LaunchOutcome>;
  cleanup(node: NodeRecord): Promise<void>;
}
