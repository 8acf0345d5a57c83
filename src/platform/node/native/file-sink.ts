import { appendFileSync, renameSync, statSync } from 'node:fs';
import { formatLogRecord, type LogSink } from '../../../shared/logger';

const ROTATE_BYTES = 5 * 1024 * 1024;

/**
 * A log sink that appends to a file (the native host's stdout carries frames only, and Chrome drops
 * its stderr). When the file passes 5 MB it becomes `<file>.1` and a new one starts. A write that
 * fails is dropped: logging must never take the host down.
 */
export function fileSink(path: string): LogSink {
  let written = sizeOf(path);
  return (record) => {
    const line = `${formatLogRecord(record)}\n`;
    try {
      if (written > ROTATE_BYTES) {
        renameSync(path, `${path}.1`);
        written = 0;
      }
      appendFileSync(path, line, { mode: 0o600 });
      written += Buffer.byteLength(line);
    } catch {
      // Nowhere left to report it: stdout is the protocol and stderr goes nowhere under Chrome.
      written = sizeOf(path);
    }
  };
}

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    // No file yet.
    return 0;
  }
}
