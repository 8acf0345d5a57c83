import { readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { HostRecord } from '../../../protocol/native-socket';
import { isHostRecord } from '../../../protocol/native-socket-shapes';
import { errorMessageOf } from '../../../shared/errors';
import { systemErrorCode } from '../../../shared/narrow';

/**
 * Discovery records: each running host writes `host-<pid>.json` (0600) in the state folder's run
 * folder, next to its socket, so clients find it without configuration. Several browsers or profiles
 * may each run a host; a client picks one by profile, else the newest.
 */

const RECORD = /^host-(\d+)\.json$/;

export function recordPath(runDir: string, pid: number): string {
  return join(runDir, `host-${pid}.json`);
}

/** Writes the record whole or not at all (a reader never sees half a file). */
export function writeRecord(runDir: string, record: HostRecord): string {
  const path = recordPath(runDir, record.pid);
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
  renameSync(temporary, path);
  return path;
}

export function removeRecord(runDir: string, pid: number): void {
  rmSync(recordPath(runDir, pid), { force: true });
}

export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else; ESRCH: gone.
    return systemErrorCode(error) === 'EPERM';
  }
}

export interface FoundRecord {
  path: string;
  record: HostRecord;
}

export interface RecordListing {
  live: FoundRecord[];
  /** Records whose host is gone (it was killed before it could remove them) or that do not parse. */
  stale: Array<{ path: string; reason: string; socket?: string }>;
}

export function listRecords(runDir: string): RecordListing {
  let names: string[];
  try {
    names = readdirSync(runDir);
  } catch {
    // No run folder yet: no host has ever run with this state folder.
    return { live: [], stale: [] };
  }
  const listing: RecordListing = { live: [], stale: [] };
  for (const name of names) {
    if (!RECORD.test(name)) {
      continue;
    }
    const path = join(runDir, name);
    try {
      const record: unknown = JSON.parse(readFileSync(path, 'utf8'));
      if (!isHostRecord(record)) {
        throw new Error('not a host record');
      }
      if (processAlive(record.pid)) {
        listing.live.push({ path, record });
      } else {
        listing.stale.push({ path, reason: `host ${record.pid} is no longer running`, socket: record.socket });
      }
    } catch (error) {
      listing.stale.push({ path, reason: `unreadable: ${errorMessageOf(error)}` });
    }
  }
  listing.live.sort((a, b) => b.record.started_at - a.record.started_at);
  return listing;
}

/** The host a client should use: the one of `userDataDir` when given, else the newest. */
export function pickRecord(listing: RecordListing, userDataDir?: string): FoundRecord | undefined {
  if (userDataDir === undefined) {
    return listing.live[0];
  }
  const wanted = resolve(userDataDir);
  return listing.live.find(
    (found) => found.record.user_data_dir !== null && resolve(found.record.user_data_dir) === wanted,
  );
}

/** Removes the records (and sockets) of hosts that died without cleaning up (a SIGKILL, a crash). */
export function removeStaleRecords(runDir: string): number {
  const { stale } = listRecords(runDir);
  for (const entry of stale) {
    rmSync(entry.path, { force: true });
    if (entry.socket !== undefined && process.platform !== 'win32') {
      rmSync(entry.socket, { force: true });
    }
  }
  return stale.length;
}
