/**
 * Errors of a full file system (ENOSPC, or a quota: EDQUOT), from Node's own calls or from the
 * messages of a child process such as git. They end a build ERROR with the reason; they never
 * end the process (docs/executor.md#out-of-space).
 */
const CODES = new Set(['ENOSPC', 'EDQUOT']);
const MESSAGES = /no space left on device|disk quota exceeded/i;

export function isOutOfSpace(err: unknown): boolean {
  if (!(err instanceof Error)) {
    return false;
  }
  const code = (err as NodeJS.ErrnoException).code;
  return (typeof code === 'string' && CODES.has(code)) || MESSAGES.test(err.message);
}
