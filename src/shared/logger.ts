import { errorMessageOf } from './errors';
import { isOneOf } from './narrow';

/**
 * A namespaced logger whose sink is chosen by the entry: the Node CLI writes to stderr (stdout carries
 * the protocol), the service worker to its console. Core code logs only through this.
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface LogRecord {
  level: LogLevel;
  namespace: string;
  message: string;
  fields?: Record<string, unknown>;
  time: number;
}

export type LogSink = (record: LogRecord) => void;

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
  child(namespace: string): Logger;
}

const LEVEL_RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };
const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const satisfies readonly LogLevel[];

/** The level `text` names (TABPILOT_LOG_LEVEL), or `fallback` when it is unset or names none. */
export function logLevelOf(text: string | undefined, fallback: LogLevel): LogLevel {
  return isOneOf(LOG_LEVELS, text) ? text : fallback;
}

export function createLogger(sink: LogSink, options: { level?: LogLevel; namespace?: string } = {}): Logger {
  const minRank = LEVEL_RANK[options.level ?? 'info'];
  const namespace = options.namespace ?? 'tabpilot';
  const log = (level: LogLevel, message: string, fields?: Record<string, unknown>): void => {
    if (LEVEL_RANK[level] < minRank) {
      return;
    }
    sink(
      fields === undefined
        ? { level, namespace, message, time: Date.now() }
        : { level, namespace, message, fields, time: Date.now() },
    );
  };
  return {
    debug: (message, fields) => log('debug', message, fields),
    info: (message, fields) => log('info', message, fields),
    warn: (message, fields) => log('warn', message, fields),
    error: (message, fields) => log('error', message, fields),
    child: (child) => createLogger(sink, { level: options.level ?? 'info', namespace: `${namespace}:${child}` }),
  };
}

export function formatLogRecord(record: LogRecord): string {
  const fields = record.fields === undefined ? '' : ` ${JSON.stringify(record.fields)}`;
  return `${new Date(record.time).toISOString()} ${record.level.toUpperCase()} [${record.namespace}] ${record.message}${fields}`;
}

/** The sink for platforms whose console is the right place (the service worker, tests). */
export const consoleSink: LogSink = (record) => {
  const line = formatLogRecord(record);
  switch (record.level) {
    case 'debug':
      console.debug(line);
      break;
    case 'info':
      console.info(line);
      break;
    case 'warn':
      console.warn(line);
      break;
    case 'error':
      console.error(line);
      break;
  }
};

export const silentLogger: Logger = createLogger(() => undefined, { level: 'error' });

/**
 * The one named way to swallow an error on purpose: a best-effort step whose failure is logged and
 * must not fail its caller. Grep for it to find every swallow.
 */
export async function bestEffort<T>(promise: Promise<T>, log: Logger, reason: string): Promise<T | undefined> {
  try {
    return await promise;
  } catch (error) {
    log.debug(`best-effort step failed: ${reason}`, { error: errorMessageOf(error) });
    return undefined;
  }
}
