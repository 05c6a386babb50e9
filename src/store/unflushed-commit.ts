/**
 * A statement whose own commit does not wait for its WAL to reach the disk
 * (`synchronous_commit = off` for its transaction only; docs/gating.md#commits-that-do-not-wait).
 * For an autocommit statement only: inside a transaction it would relax that transaction's commit.
 * Such a commit is visible at once and is lost only if PostgreSQL itself stops before the WAL
 * writer (within about 0.6 s) or a later flushed commit wrote it out; a killed Sluice process
 * loses nothing. So it is for writes that are safe to do again when lost.
 */

/** What the `WITH` entry `unflushed` selects: it relaxes the commit when the statement reads it (`UNFLUSHED_CONDITION`). */
const UNFLUSHED_SELECT = `SELECT set_config('synchronous_commit', 'off', true) AS setting`;

/** The `WITH` entry, as text. */
export const UNFLUSHED_CTE = `unflushed AS (${UNFLUSHED_SELECT})`;

/** A condition, always true, that makes the statement evaluate `UNFLUSHED_CTE` before it writes. */
export const UNFLUSHED_CONDITION = `(SELECT count(*) FROM unflushed) = 1`;
