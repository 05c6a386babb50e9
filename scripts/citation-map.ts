/**
 * The mapping table of scripts/rewrite-citations.ts: from each citation of the reference
 * specification, as comments used to write it, to the docs section that now states the fact
 * (`<file>#<anchor>` under docs/). Keys are `<spec file> <section>[ <qualifier>]`:
 * - spec files: `compat` (REST compatibility reference), `engine` (engine reference, also written
 *   `spec §...`), `rest-api` (REST specification, no section numbers), `design` (the design
 *   guide), `guide` (the style guide);
 * - sections: `§2.37`, `A4`, `Part A`, or nothing for the whole file;
 * - a qualifier (`step 7`, `"Wildcards"`, `` `getChangeQueue` ``, `dequeueItem`) makes a more
 *   precise entry; without one the section's entry is used and the qualifier is kept after the
 *   citation (a `step`/`#case` qualifier only when the target is numbered like the spec).
 * Every spec section has an entry, so citations other branches add before they merge still map.
 */
export type SpecFile = 'compat' | 'engine' | 'rest-api' | 'design' | 'guide';

const REST = 'rest.md';
const GATING = 'gating.md';
const CONFIG = 'project-configuration.md';
const LAUNCHER = 'launcher.md';
const EXECUTOR = 'executor.md';
const SECURITY = 'security.md';

/** `keys` all map to `target`. */
function all(target: string, ...keys: string[]): Record<string, string> {
  return Object.fromEntries(keys.map((key) => [key, target]));
}

export const CITATIONS: Record<string, string> = {
  // REST compatibility reference: Part A (Sluice's rules), then the reference's behaviour.
  ...all(`${REST}#reference-behaviour`, 'compat', 'compat A1', 'compat §1', 'compat §2'),
  ...all(`${REST}#deliberate-differences-from-the-reference`, 'compat A2', 'compat A4', 'compat Part A'),
  ...all(
    `${REST}#deliberate-differences-from-the-reference`,
    'compat §0.1',
    'compat §1.2',
    'compat §1.6',
    'compat §2.48',
  ),
  'compat A3': `${REST}#the-shape-rule`,
  'compat Part B': `${REST}#reference-behaviour`,
  ...all(`${REST}#wire-conventions`, 'compat §0', 'compat §1.7', 'compat §1.10'),
  ...all(`${REST}#paths-and-parameters`, 'compat §1.1', 'compat §1.3', 'compat §9'),
  ...all(`${REST}#request-order-and-bodies`, 'compat §1.4', 'compat §1.5'),
  'compat §1.8': `${REST}#caching-headers`,
  'compat §1.9': `${REST}#who-may-call-an-endpoint`,
  'compat §2.1': `${REST}#api-index`,
  ...all(`${REST}#info`, 'compat §2.2', 'compat §2.7'),
  ...all(`${SECURITY}#who-may-do-what-rules`, 'compat §2.3', 'compat §2.8', 'compat §6', 'compat §6.3', 'compat §6.4'),
  ...all(`${REST}#components-and-connections`, 'compat §2.4', 'compat §2.5'),
  'compat §2.6': `${REST}#tenants`,
  ...all(`${REST}#status-document`, 'compat §2.9', 'compat §2.10', 'compat §5', 'compat §5.1'),
  'compat §2.12': `${REST}#tenant-event-queue-state`,
  ...all(`${REST}#tenant-configuration-reads`, 'compat §2.11', 'compat §2.13', 'compat §2.14', 'compat §2.16'),
  ...all(`${REST}#tenant-configuration-reads`, 'compat §2.20', 'compat §2.32'),
  'compat §2.15': `${REST}#project-detail`,
  ...all(`${REST}#job-variants`, 'compat §2.17', 'compat §4.3'),
  ...all(`${REST}#frozen-job-graphs`, 'compat §2.18', 'compat §2.19'),
  ...all(`${REST}#launcher-objects`, 'compat §2.21', 'compat §2.26', 'compat §2.27', 'compat §2.28'),
  ...all(
    `${REST}#nodes-nodeset-requests-and-image-actions`,
    'compat §2.22',
    'compat §2.23',
    'compat §2.24',
    'compat §2.25',
    'compat §2.29',
    'compat §2.30',
    'compat §2.31',
  ),
  ...all(`${REST}#public-keys`, 'compat §2.33', 'compat §2.34'),
  'compat §2.35': `${EXECUTOR}#live-console`,
  'compat §2.36': `${REST}#badge`,
  ...all(`${REST}#builds`, 'compat §2.37', 'compat §2.38'),
  'compat §2.39': `${REST}#build-times`,
  ...all(`${REST}#buildsets`, 'compat §2.40', 'compat §2.41'),
  ...all(`${REST}#autohold`, 'compat §2.42', 'compat §2.43', 'compat §2.44'),
  ...all(`${REST}#enqueue-dequeue-and-promote`, 'compat §2.45', 'compat §2.46', 'compat §2.47'),
  'compat §2.49': `${REST}#where-each-case-is-reproduced`,
  ...all(`${REST}#earlier-shape-endpoints`, 'compat §3', 'compat §4', 'compat §4.1', 'compat §4.4', 'compat §4.6'),
  'compat §4.2': `${REST}#earlier-shape-records`,
  ...all(`${REST}#earlier-status-document`, 'compat §4.5', 'compat §5.2'),
  'compat §6.1': `${SECURITY}#authenticators`,
  'compat §6.2': `${SECURITY}#validation-and-the-401-answer`,
  'compat §6.2 table': `${SECURITY}#validation-and-the-401-answer`,
  ...all(`${REST}#reference-cases`, 'compat §6.5', 'compat §8'),
  ...all(`${REST}#pointing-an-existing-client-at-sluice`, 'compat §7', 'compat §7.1', 'compat §7.2', 'compat §7.3'),
  'compat §8.1': `${REST}#current-shape-cases`,
  'compat §8.2': `${REST}#earlier-shape-cases`,

  // Engine reference: Part A (Sluice's rules), then the reference engine.
  ...all(`${GATING}#sluices-own-rules`, 'engine Part A'),
  ...all(`${GATING}#reference-behaviour`, 'engine', 'engine Part B', 'engine §2'),
  ...all(`${GATING}#the-moving-parts`, 'engine §0', 'engine §0.1'),
  'engine §0.2': `${CONFIG}#how-configuration-is-loaded`,
  'engine §1': `${CONFIG}#reference-behaviour`,
  'engine §1.1': `${CONFIG}#configuration-files`,
  'engine §1.2': `${CONFIG}#supported-objects`,
  ...all(`${CONFIG}#the-tenant-file`, 'engine §1.3', 'engine §1.3.3', 'engine §1.3.4'),
  'engine §1.3.1': `${GATING}#tenant-limits`,
  'engine §1.3.2': `${SECURITY}#who-may-do-what-rules`,
  'engine §1.4': `${CONFIG}#pipelines`,
  'engine §1.5': `${CONFIG}#jobs`,
  'engine §1.6': `${CONFIG}#projects-and-templates`,
  'engine §1.7': `${CONFIG}#nodesets`,
  ...all(`${CONFIG}#semaphores-queues-and-pragmas`, 'engine §1.8', 'engine §1.10', 'engine §1.11'),
  'engine §1.9': `${SECURITY}#secrets`,
  'engine §1.12': `${CONFIG}#launcher-objects`,
  'engine §1.13': `${CONFIG}#layout-assembly`,
  'engine §1.14': `${CONFIG}#triggers-reporters-and-requirements`,
  ...all(`${GATING}#runtime-state`, 'engine §2.1', 'engine §3.3'),
  ...all(`${GATING}#event-processing`, 'engine §2.2', 'engine §2.2.1', 'engine §2.2.2 step 5'),
  // The code cites "processing one pipeline" for paused builds (the BuildPaused result event).
  ...all(`${GATING}#paused-builds`, 'engine §2.2.2', 'engine §2.2.2 BuildPaused'),
  'engine §2.3': `${GATING}#managers`,
  'engine §2.3 `getChangeQueue`': `${GATING}#managers`,
  'engine §2.4': `${GATING}#enqueue`,
  'engine §2.4 `_reportNonEnqueuedItem`': `${GATING}#enqueue`,
  'engine §2.5': `${GATING}#queue-pass`,
  'engine §2.5.1': `${GATING}#preparing-an-item`,
  'engine §2.5.1 `merger_items`': `${GATING}#preparing-an-item`,
  'engine §2.6': `${GATING}#windows`,
  'engine §2.7': `${GATING}#speculative-gating-in-a-dependent-queue`,
  'engine §2.8': `${CONFIG}#job-freezing`,
  'engine §2.8.1': `${CONFIG}#project-pipeline-config`,
  'engine §2.8.2': `${CONFIG}#freezing-one-job`,
  'engine §2.8.3': `${CONFIG}#inheritance-rules`,
  ...all(`${CONFIG}#graph-completion`, 'engine §2.8.4', 'engine §2.8.5'),
  'engine §2.8.6': `${CONFIG}#differences-from-the-reference-and-what-is-not-supported-yet`,
  ...all(
    `${GATING}#jobs-inside-an-item`,
    'engine §2.9',
    'engine §2.9 step 2',
    'engine §2.9.1',
    'engine §2.9.3',
    'engine §3.4',
  ),
  ...all(`${LAUNCHER}#nodeset-requests`, 'engine §2.9.2', 'engine §2.9.5', 'engine §6.2', 'engine §6.4', 'engine §6.7'),
  'engine §6.4 step 2': `${LAUNCHER}#nodeset-requests`,
  ...all(`${GATING}#semaphores`, 'engine §2.9.4', 'engine §3.7'),
  'engine §2.9.6': `${GATING}#canceling-jobs`,
  'engine §2.9.6 with prime': `${GATING}#canceling-jobs`,
  'engine §2.9.6 prime': `${GATING}#canceling-jobs`,
  'engine §2.10': `${GATING}#build-completion`,
  'engine §2.11': `${GATING}#reporting`,
  'engine §2.11 `_formatItemReport`': `${GATING}#reporting`,
  'engine §2.12': `${GATING}#leaving-a-pipeline`,
  'engine §2.12 dequeueItem': `${GATING}#leaving-a-pipeline`,
  'engine §2.12 removeItem': `${GATING}#leaving-a-pipeline`,
  'engine §2.13': `${GATING}#reconfiguration`,
  ...all(`${GATING}#results`, 'engine §3', 'engine §3.1', 'engine §3.2'),
  'engine §3.5': `${LAUNCHER}#node-and-request-states`,
  'engine §3.5 "allocated"': `${LAUNCHER}#node-and-request-states`,
  'engine §3.6': `${LAUNCHER}#image-states`,
  ...all(`${GATING}#autohold`, 'engine §3.8', 'engine §6.6'),
  ...all(`${GATING}#build-history`, 'engine §3.9', 'engine §4', 'engine §4.1', 'engine §4.2', 'engine §4.4'),
  ...all(
    `${GATING}#build-history`,
    'engine §3.9 `zuul_build_event`',
    'engine §3.9 buildset events',
    'engine §4.1 `zuul_ref`',
  ),
  'engine §3.10': `${CONFIG}#config-errors`,
  'engine §3.11': `${EXECUTOR}#merge-modes-and-workspace-schemes`,
  'engine §4.3': `${REST}#builds`,
  ...all(`${SECURITY}#keys`, 'engine §5', 'engine §5.1', 'engine §5.4'),
  ...all(
    `${SECURITY}#secrets`,
    'engine §5.2',
    'engine §5.3',
    'engine §5.2 "frozen secrets"',
    'engine §5.2 "Validation"',
  ),
  'engine §6': `${LAUNCHER}#reference-behaviour`,
  'engine §6.1': `${LAUNCHER}#providers-and-drivers`,
  'engine §6.3': `${LAUNCHER}#wiring`,
  'engine §6.5': `${LAUNCHER}#node-life-cycle`,
  'engine §6.8': `${LAUNCHER}#images`,
  'engine §6.8 permission rules': `${LAUNCHER}#images`,
  'engine §6.9': `${LAUNCHER}#tests`,
  ...all(`${GATING}#sluices-own-rules`, 'engine §7', 'engine §7.1', 'engine §7.2', 'engine §7.3', 'engine §7.4'),
  ...all(`${GATING}#sluices-own-rules`, 'engine §7.5', 'engine §7.6'),

  // REST specification: no numbered sections; the earlier-shape record tables by name.
  'rest-api': `${REST}#endpoints-and-what-is-served`,
  'rest-api "Build (earlier shape, flat)"': `${REST}#earlier-shape-records`,
  'rest-api "Buildset (earlier shape, flat)"': `${REST}#earlier-shape-records`,

  // The design guide and the style guide.
  design: 'development.md#layout',
  'design §3': 'development.md#layout',
  'design §4': 'development.md#storage',
  'design §10': 'development.md#tests',
  'guide A2': 'live.md#authentication-and-protocol',
};

/** Targets whose numbered lists (steps, cases) follow the spec's numbering, so `step 9` / `#36` stay meaningful. */
export const NUMBERED_LIKE_SPEC = new Set<string>([
  `${GATING}#enqueue`,
  `${GATING}#queue-pass`,
  `${GATING}#preparing-an-item`,
  `${GATING}#build-completion`,
  `${GATING}#autohold`,
  `${GATING}#build-history`,
  `${CONFIG}#freezing-one-job`,
  `${LAUNCHER}#images`,
  `${REST}#current-shape-cases`,
  `${REST}#earlier-shape-cases`,
]);

const SECURITY_SECTIONS: Record<string, string> = {
  '1': 'authenticators',
  '2': 'who-may-do-what-rules',
  '3': 'keys',
  '4': 'secrets',
  '5': 'graphql-limits',
  '6': 'for-developers-where-things-are',
};

/**
 * Whole phrases rewritten before the section-by-section mapping: citations whose wording does
 * not survive a plain substitution, and docs citations of the numbered `docs/security.md §N`
 * scheme that anchors replaced.
 */
export const PHRASES: Array<[RegExp, string | ((match: string, ...groups: string[]) => string)]> = [
  [/docs\/security\.md §(\d)\b/g, (_match, n) => `docs/security.md#${SECURITY_SECTIONS[n] ?? `section-${n}`}`],
  [/docs\/events\.md describes each/g, 'docs/rest.md#system-events describes each'],
  [
    /rest-api\.md's earlier StatusJob \(authoritative, compat\.md A3\) filled in with §5\.2's other fields/g,
    "The REST specification's earlier StatusJob (authoritative, docs/rest.md#the-shape-rule) filled in with the other fields of docs/rest.md#earlier-status-document",
  ],
  [
    /compat\.md §5\.2 with rest-api\.md's integer types \(A3\)/g,
    "docs/rest.md#earlier-status-document with the REST specification's integer types (docs/rest.md#the-shape-rule)",
  ],
  [/rest-api\.md: the earlier (builds|buildsets) query/g, 'The earlier $1 query (docs/rest.md#earlier-shape-records)'],
  [
    /^\/\*\* rest-api\.md "(Build|Buildset) \(earlier shape, flat\)"\. \*\/$/g,
    (_match, record) =>
      `/** The earlier shape's flat ${record.toLowerCase()} record (docs/rest.md#earlier-shape-records). */`,
  ],
  [/\b(?:spec\/)?rest-api\.md's\b/g, "the REST specification's"],
  [
    /Every filter documented in spec\/rest-api\.md has an index/g,
    'Every REST filter (docs/rest.md#builds, docs/rest.md#buildsets) has an index',
  ],
  [/the example records of compat\.md/g, 'the example records of the reference (docs/rest.md#reference-behaviour)'],
];

/**
 * String literals that cited the specification — GraphQL and OpenAPI descriptions and test names —
 * with their replacement. Only `--strings` applies them (string literals are code, so the default
 * run leaves them alone); a changed description then needs `npm run schema:print`, `npm run codegen`
 * and `npx tsx scripts/write-openapi.ts`, and `npm run format` re-wraps changed lines.
 */
export const STRING_REWRITES: Record<string, string> = {
  'Pending trigger events (rest-api.md: an integer)': 'Pending trigger events (an integer in the earlier shape)',
  'Tenant status document (compat.md §5.1)': 'Tenant status document (docs/rest.md#status-document)',
  'Earlier tenant status document (rest-api.md, compat.md §5.2)':
    'Earlier tenant status document (docs/rest.md#earlier-status-document)',
  'States of a provider node (engine.md §3.5); REST spells them in lower case with dashes.':
    'States of a provider node (docs/launcher.md#node-and-request-states); REST spells them in lower case with dashes.',
  'How a pipeline queues and tests items (spec/engine.md §2).':
    'How a pipeline queues and tests items (docs/gating.md#managers).',
  'How a build ended (spec/engine.md §3.1). Null on a build that has not completed.':
    'How a build ended (docs/gating.md#results). Null on a build that has not completed.',
  'How a buildset ended (spec/engine.md §3.2). Null on a buildset still running.':
    'How a buildset ended (docs/gating.md#results). Null on a buildset still running.',
  'REST auth contract (compat.md §8.1): rules, realms and admin endpoints':
    'REST auth contract (reference cases): rules, realms and admin endpoints',
  'REST auth contract (compat.md §8.1): read-protected api-root and tenant':
    'REST auth contract (reference cases): read-protected api-root and tenant',
  'tenant list after reconfigurations (§8.1 #3)': 'tenant list after reconfigurations (case 3)',
  'earlier shape: tenant file order with project and queue counts (§8.2 #3, §4.4)':
    'earlier shape: tenant file order with project and queue counts (earlier case 3)',
  'job variants, secrets and semaphores (§8.1 #20–#22, #24, #34)':
    'job variants, secrets and semaphores (cases 20–22, 24, 34)',
  'labels with per-tenant label restrictions (§8.1 #30, §2.21)': 'labels with per-tenant label restrictions (case 30)',
  'earlier shape: label names sorted (§3)': 'earlier shape: label names sorted',
  'schemas accept the example records of compat.md': 'schemas accept the reference example records',
  'build list record (§2.37) and its key set': 'build list record and its key set',
  'single build (§2.38) adds buildset.refs': 'single build adds buildset.refs',
  'buildset list record (§2.40) never carries builds/events; detail may':
    'buildset list record never carries builds/events; detail may',
  'build-times record (§2.39)': 'build-times record',
  'earlier flat records (rest-api.md tables)': 'earlier flat records',
  'compat.md §8 behaviour (build history)': 'reference cases (build history)',
  'lists builds newest first with integer _id, float duration and the build ref (§8.1 #36)':
    'lists builds newest first with integer _id, float duration and the build ref (case 36)',
  'filters: repeated values, wildcards, literal % and _, idx range (§8.1 #36–#38)':
    'filters: repeated values, wildcards, literal % and _, idx range (cases 36–38)',
  'result filters and error_detail (§8.1 #39, #41)': 'result filters and error_detail (cases 39, 41)',
  'artifacts carry metadata only when present (§8.1 #42)': 'artifacts carry metadata only when present (case 42)',
  'single build has buildset.refs; unknown uuid is 404 Build not found (§8.1 #36)':
    'single build has buildset.refs; unknown uuid is 404 Build not found (case 36)',
  'buildsets newest first, exclude_result, wildcards over refs (§8.1 #43, #44)':
    'buildsets newest first, exclude_result, wildcards over refs (cases 43, 44)',
  'buildset detail: builds oldest first, triggered event; absent keys when empty (§8.1 #43)':
    'buildset detail: builds oldest first, triggered event; absent keys when empty (case 43)',
  'build-times lists finished builds (§8.1 #45)': 'build-times lists finished builds (case 45)',
  'badge: passing/failing SVG, no-cache, 404 No buildset found (§8.1 #46)':
    'badge: passing/failing SVG, no-cache, 404 No buildset found (case 46)',
  'earlier shape: flat builds and buildsets with integer change/patchset/duration (§8.2 #13, #14)':
    'earlier shape: flat builds and buildsets with integer change/patchset/duration (earlier cases 13, 14)',
  'components by reference kind and source connections (§8.1 #4, #5)':
    'components by reference kind and source connections (cases 4, 5)',
  'tenants sorted with Cache-Control; info and tenant info (§8.1 #2, #7, #8)':
    'tenants sorted with Cache-Control; info and tenant info (cases 2, 7, 8)',
  'pipelines in layout order with triggers; earlier names only (§8.1 #25, §8.2 #8)':
    'pipelines in layout order with triggers; earlier names only (case 25, earlier case 8)',
  'projects sorted with types (§8.1 #26)': 'projects sorted with types (case 26)',
  'jobs: absent keys when empty, variants with parents; earlier name/description (§8.1 #18, A3)':
    'jobs: absent keys when empty, variants with parents; earlier name/description (case 18)',
  'tenant-status and config-errors with filters and paging (§8.1 #35)':
    'tenant-status and config-errors with filters and paging (case 35)',
  'job variants: current and earlier keys, nodeset rules, unknown job 404 (§8.1 #19, #23; §4.3)':
    'job variants: current and earlier keys, nodeset rules, unknown job 404 (cases 19, 23)',
  'project detail with metadata and configs; unknown and %2F-encoded names 404 (§8.1 #27, §1.1)':
    'project detail with metadata and configs; unknown and %2F-encoded names 404 (case 27)',
  'a project without a project stanza has empty configs and metadata (§8.1 #28)':
    'a project without a project stanza has empty configs and metadata (case 28)',
  'freeze-jobs and freeze-job; unknown pipeline/project/job 404 (§8.1 #32, #33)':
    'freeze-jobs and freeze-job; unknown pipeline/project/job 404 (cases 32, 33)',
  'per-branch queue: every gate queue has branch "master" (§8.1 #14, §5.1)':
    'per-branch queue: every gate queue has branch "master" (case 14)',
  'after every change completed the gate lists no queue (§8.1 #15, §5.1)':
    'after every change completed the gate lists no queue (case 15)',
  'compat.md §8 behaviour': 'reference cases',
  'status: headers, current items with refs, earlier per-change items (§8.1 #11–#13, §8.2 #2, §5, A3)':
    'status: headers, current items with refs, earlier per-change items (cases 11–13, earlier case 2)',
  'status/change returns the items of the change; unknown change -> [] (§2.10, §8.1 #16)':
    'status/change returns the items of the change; unknown change -> [] (case 16)',
  'state: POST coerces flags, keeps omitted ones, truncates the reason; GET and status show it (§2.12, A4)':
    'state: POST coerces flags, keeps omitted ones, truncates the reason; GET and status show it',
  'enqueue a change -> true and the item appears; earlier GET form too (§2.45, §8.2, A3)':
    'enqueue a change -> true and the item appears; earlier GET form too',
  'dequeue removes the item; promote of the current order answers true (§2.46, §2.47, §8.1 #51, #52)':
    'dequeue removes the item; promote of the current order answers true (cases 51, 52)',
  'autohold: create (default, change, ref), list with project suffix filter, get, delete (§2.42–§2.44, §8.1 #49, #50)':
    'autohold: create (default, change, ref), list with project suffix filter, get, delete (cases 49, 50)',
  'autohold validation and 404 texts (§2.43, §2.44)': 'autohold validation and 404 texts',
  'lists the node of label label1 from test-provider (§8.1 #31, current node record §2.22)':
    'lists the node of label label1 from test-provider (case 31, current node record)',
  'HS256 tokens (compat.md §6.5 fixtures)': 'HS256 tokens (the reference test-suite fixtures)',
};
