/** The change-source port: what the engine asks about changes and refs (the git connection implements it). */
import type { ChangeInfo } from '../../model/changes';

/** Answers questions about changes and refs (the git connection implements it). */
export interface ChangeSource {
  /** The change at the given patchset (latest when omitted), or null when unknown. */
  getChange(project: string, number: number, patchset?: string): Promise<ChangeInfo | null>;
  /** A branch, tag or other ref update. */
  getRef(project: string, ref: string, oldrev: string | null, newrev: string | null): Promise<ChangeInfo>;
  /** Open changes of a project (for `project-change-merged`). */
  openChanges(project: string): Promise<ChangeInfo[]>;
  /** Open changes that depend on this one (Depends-On) in the given projects. */
  changesDependingOn(change: ChangeInfo, projects: readonly string[]): Promise<ChangeInfo[]>;
  /**
   * Open changes of the change's connection that share its topic, itself among them; none when it
   * has no topic. Absent: the source's changes carry no topics (docs/gating.md#dependency-cycles).
   */
  changesInTopic?(change: ChangeInfo): Promise<ChangeInfo[]>;
}
