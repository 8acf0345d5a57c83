import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, readlink } from 'node:fs/promises';
import type { Socket } from 'node:net';
import type { PeerIdentity, PeerProcess } from '../../../protocol/native-messages';
import { fieldOf } from '../../../shared/narrow';

/** `ss` answers in about 15 ms (50 on a loaded machine); one that hangs must not hold a client forever. */
const SS_TIMEOUT_MS = 5_000;
/** A command line is shown, not parsed: a page of it is enough to tell programs apart. */
const CMDLINE_LIMIT = 2_000;

/**
 * Who is on the other end of an accepted Unix socket, as the operating system knows it (not as the
 * program names itself). Node has no SO_PEERCRED and no addon can be built here, so on Linux the
 * socket's inode is read from /proc/self/fd, `ss -xpn` (iproute2) names the process holding the
 * socket whose peer is that inode, and /proc/<pid> says its executable, command line and parent.
 * Anywhere else, or when any step fails, the answer is null: the system did not vouch for the caller.
 */
/**
 * The system's table of Unix sockets (`ss -xpn`), read once for every lookup that asks while a read is
 * going: a flood of connections costs a few reads, not one each (ss walks every process's descriptors).
 * A read already under way may have walked past a socket accepted after it began, so a lookup that asks
 * meanwhile waits for the read after it.
 */
export class SocketTable {
  readonly #readTable: () => Promise<string>;
  #running: Promise<string> | undefined;
  #next: Promise<string> | undefined;

  constructor(readTable: () => Promise<string> = runSs) {
    this.#readTable = readTable;
  }

  read(): Promise<string> {
    if (this.#running === undefined) {
      return this.#start();
    }
    this.#next ??= this.#running.then(
      () => this.#startNext(),
      () => this.#startNext(),
    );
    return this.#next;
  }

  #startNext(): Promise<string> {
    this.#next = undefined;
    return this.#start();
  }

  #start(): Promise<string> {
    const run = this.#readTable().finally(() => {
      if (this.#running === run) {
        this.#running = undefined;
      }
    });
    this.#running = run;
    return run;
  }
}

export async function identifyPeer(socket: Socket, table: SocketTable): Promise<PeerIdentity | null> {
  if (process.platform !== 'linux') {
    return null;
  }
  // Node's own handle of the socket: not in its types, so read as an unknown field and checked.
  const fd = fieldOf(fieldOf(socket, '_handle'), 'fd');
  if (typeof fd !== 'number' || fd < 0) {
    return null;
  }
  try {
    const inode = socketInode(await readlink(`/proc/self/fd/${fd}`));
    if (inode === undefined) {
      return null;
    }
    const pid = peerPidFromSs(await table.read(), inode);
    if (pid === undefined) {
      return null;
    }
    const process1 = await describeProcess(pid);
    const parent = process1.ppid > 0 ? await describeProcess(process1.ppid).catch(() => undefined) : undefined;
    return {
      pid,
      exe: process1.exe,
      cmdline: process1.cmdline,
      parent: parent === undefined ? null : { pid: process1.ppid, exe: parent.exe, cmdline: parent.cmdline },
    };
  } catch {
    // Any step missing (no ss, the process gone, /proc hidden): not vouched, said so in the panel.
    return null;
  }
}

/** `socket:[1079933]` → `1079933`. */
export function socketInode(link: string): string | undefined {
  return /^socket:\[(\d+)\]$/.exec(link)?.[1];
}

/**
 * In `ss -xpn` output, the pid holding the socket whose peer is `inode` (our accepted socket). Each
 * line ends `<local addr> <local inode> <peer addr> <peer inode> users:(("name",pid=N,fd=M),...)`;
 * it is read from the end, because a local address is a path that may hold spaces.
 */
export function peerPidFromSs(output: string, inode: string): number | undefined {
  for (const line of output.split('\n')) {
    const usersAt = line.indexOf('users:(');
    if (usersAt === -1) {
      continue;
    }
    const fields = line.slice(0, usersAt).trim().split(/\s+/);
    const peerInode = fields.at(-1);
    const localInode = fields.at(-3);
    if (peerInode !== inode || localInode === inode) {
      continue;
    }
    const pid = /pid=(\d+)/.exec(line.slice(usersAt))?.[1];
    if (pid !== undefined) {
      return Number(pid);
    }
  }
  return undefined;
}

/** The parent pid in /proc/<pid>/stat: the 2nd field after the command name's closing parenthesis. */
export function parentPidFromStat(stat: string): number | undefined {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ppid = Number(fields[1]);
  return Number.isSafeInteger(ppid) ? ppid : undefined;
}

async function describeProcess(pid: number): Promise<PeerProcess & { ppid: number }> {
  const [exe, cmdline, stat] = await Promise.all([
    readlink(`/proc/${pid}/exe`),
    readFile(`/proc/${pid}/cmdline`),
    readFile(`/proc/${pid}/stat`, 'utf8'),
  ]);
  const args = cmdline
    .toString('utf8')
    .split('\0')
    .filter((arg) => arg !== '');
  return { pid, exe, cmdline: args.join(' ').slice(0, CMDLINE_LIMIT), ppid: parentPidFromStat(stat) ?? 0 };
}

/**
 * Where iproute2 installs ss, tried before PATH: a host Chrome starts gets a bare PATH, and a PATH a
 * caller controls should not pick the program that vouches for callers.
 */
const SS_PATHS = ['/usr/bin/ss', '/usr/sbin/ss', '/bin/ss', '/sbin/ss'];

function runSs(): Promise<string> {
  const ss = SS_PATHS.find((path) => existsSync(path)) ?? 'ss';
  return new Promise((resolve, reject) => {
    execFile(ss, ['-xpn'], { timeout: SS_TIMEOUT_MS, maxBuffer: 32 * 1024 * 1024 }, (error, stdout) => {
      if (error === null) {
        resolve(stdout);
      } else {
        reject(new Error(`ss -xpn failed: ${error.message}`));
      }
    });
  });
}
