import { formatLogRecord, type LogSink } from '../../shared/logger';

/** Logs go to stderr: stdout carries protocol lines (CLI) or frames (native host). */
export const stderrSink: LogSink = (record) => {
  process.stderr.write(`${formatLogRecord(record)}\n`);
};
