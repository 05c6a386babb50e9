/**
 * File comments from builds (docs/gerrit.md#file-comments): what a job returned as
 * `zuul: {file_comments: {<path>: [{line, message, range}]}}` (`zuul_return`) becomes the inline
 * comments of the Gerrit review, as the reference sends them: from the builds of the jobs that
 * ran for the reported change, only on files the patch set has (Gerrit refuses the whole review
 * otherwise); a comment on another file, or one that is not of that shape, is left out with a
 * warning in the review's message. Nothing here throws on what a job returned.
 */
import type { ItemReport } from '../../engine/ports/reporter';
import type { CommentInput } from './client';

const RANGE_KEYS = ['start_line', 'start_character', 'end_line', 'end_character'] as const;

const isCount = (value: unknown): value is number => Number.isInteger(value) && (value as number) >= 0;

/** One returned comment as Gerrit's `CommentInput`, or what is wrong with it. */
function commentOf(raw: unknown): CommentInput | string {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return 'a comment is not a mapping';
  }
  const entry = raw as Record<string, unknown>;
  const unknown = Object.keys(entry).filter((key) => !['line', 'message', 'range', 'level'].includes(key));
  if (unknown.length > 0) {
    return `unknown key "${unknown[0]}"`;
  }
  if (typeof entry.message !== 'string') {
    return '"message" must be a string';
  }
  if (entry.line !== undefined && !isCount(entry.line)) {
    return '"line" must be a whole number';
  }
  if (entry.level !== undefined && typeof entry.level !== 'string') {
    return '"level" must be a string';
  }
  const comment: CommentInput = { message: entry.message, ...(entry.line === undefined ? {} : { line: entry.line }) };
  if (entry.range !== undefined) {
    const range = entry.range as Record<string, unknown> | null;
    if (range === null || typeof range !== 'object' || !RANGE_KEYS.every((key) => isCount(range[key]))) {
      return `"range" must have whole numbers ${RANGE_KEYS.join(', ')}`;
    }
    comment.range = Object.fromEntries(RANGE_KEYS.map((key) => [key, range[key]])) as CommentInput['range'];
  }
  return comment;
}

/**
 * The file comments the builds of the report's jobs for its change returned (their current
 * builds; a cycle's other changes' jobs left out), by path, and a warning for each entry left out
 * as malformed.
 */
export function returnedFileComments(report: ItemReport): {
  comments: Record<string, CommentInput[]>;
  warnings: string[];
} {
  const comments: Record<string, CommentInput[]> = {};
  const warnings: string[] = [];
  const own = report.otherChanges?.length ?? 0;
  for (const job of report.jobs) {
    const zuul = job.build?.data?.zuul as Record<string, unknown> | undefined;
    const returned = zuul?.file_comments;
    if ((job.change ?? 0) !== own || returned === undefined || returned === null) {
      continue;
    }
    if (typeof returned !== 'object' || Array.isArray(returned)) {
      warnings.push(`Job ${job.name}: validation error in file comments: not a mapping of files to comments`);
      continue;
    }
    for (const [path, list] of Object.entries(returned as Record<string, unknown>)) {
      if (!Array.isArray(list)) {
        warnings.push(`Job ${job.name}: validation error in file comments of ${path}: not a list of comments`);
        continue;
      }
      for (const raw of list) {
        const comment = commentOf(raw);
        if (typeof comment === 'string') {
          warnings.push(`Job ${job.name}: validation error in file comments of ${path}: ${comment}`);
        } else {
          (comments[path] ??= []).push(comment);
        }
      }
    }
  }
  return { comments, warnings };
}

/** The comments on files the patch set has (`files`), and a warning for each other file, as the reference words it. */
export function commentsOnFiles(
  comments: Record<string, CommentInput[]>,
  files: readonly string[],
): { comments: Record<string, CommentInput[]>; warnings: string[] } {
  const kept: Record<string, CommentInput[]> = {};
  const warnings: string[] = [];
  for (const [path, list] of Object.entries(comments)) {
    if (files.includes(path)) {
      kept[path] = list;
    } else {
      warnings.push(`Comments left for invalid file ${path}`);
    }
  }
  return { comments: kept, warnings };
}

/** The review's message with the warnings after it, as the reference appends them (`Warning:`, one a line). */
export function withWarnings(message: string | undefined, warnings: readonly string[]): string | undefined {
  if (message === undefined || warnings.length === 0) {
    return message;
  }
  return `${message}\n\nWarning:\n  ${warnings.join('\n  ')}`;
}
