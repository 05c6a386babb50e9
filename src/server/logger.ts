/** JSON logging with pino. One logger per process; children carry a component name. */
import pino, { type Logger } from 'pino';

export type { Logger };

export function createLogger(options: { level?: string; destination?: pino.DestinationStream } = {}): Logger {
  const level = options.level ?? process.env.SLUICE_LOG_LEVEL ?? 'info';
  return options.destination
    ? pino({ level, base: { app: 'sluice' } }, options.destination)
    : pino({ level, base: { app: 'sluice' } });
}

/** A logger that discards everything (tests that do not inspect logs). */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
