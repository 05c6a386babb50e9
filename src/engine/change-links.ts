/**
 * Web links of changes (docs/configuration.md#ref-url-templates): the change source of a tenant's
 * scheduler fills the `url` of every change it hands out, so queue items, status refs, reports
 * and build history carry it.
 */
import type { ChangeInfo } from '../model/changes';
import type { ChangeSource } from './ports/change-source';

/** The web link of a change of a tenant (null when none can be made). */
export type ChangeLink = (tenant: string, change: ChangeInfo) => string | null;

/** `change` with its `url` filled in when the source gave none. */
function linked(change: ChangeInfo, link: (change: ChangeInfo) => string | null): ChangeInfo {
  if (change.url !== null) {
    return change;
  }
  const url = link(change);
  return url === null ? change : { ...change, url };
}

/** A change source whose changes carry their web links. */
export function withChangeLinks(source: ChangeSource, link: (change: ChangeInfo) => string | null): ChangeSource {
  const one = (change: ChangeInfo): ChangeInfo => linked(change, link);
  return {
    getChange: async (project, number, patchset) => {
      const change = await source.getChange(project, number, patchset);
      return change === null ? null : one(change);
    },
    getRef: async (project, ref, oldrev, newrev) => one(await source.getRef(project, ref, oldrev, newrev)),
    openChanges: async (project) => (await source.openChanges(project)).map(one),
    changesDependingOn: async (change, projects) => (await source.changesDependingOn(change, projects)).map(one),
    changesInTopic: async (change) => ((await source.changesInTopic?.(change)) ?? []).map(one),
  };
}
