import { chmodSync, lstatSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { TabpilotError } from '../../../shared/errors';

/**
 * The per-user folder where the native host keeps its socket, discovery records and log:
 * `TABPILOT_STATE_DIR` when set (tests and parallel engineers each use their own), else
 * `$XDG_STATE_HOME/tabpilot` or `~/.local/state/tabpilot` on Linux and
 * `~/Library/Application Support/tabpilot` on macOS. Only the user may enter it (0700).
 */
export function stateDir(env: NodeJS.ProcessEnv = process.env, platform: string = process.platform): string {
  const override = env['TABPILOT_STATE_DIR'];
  if (override !== undefined && override !== '') {
    return resolve(override);
  }
  const home = env['HOME'] ?? homedir();
  if (platform === 'darwin') {
    return join(home, 'Library', 'Application Support', 'tabpilot');
  }
  if (platform === 'win32') {
    return join(env['LOCALAPPDATA'] ?? join(home, 'AppData', 'Local'), 'tabpilot');
  }
  const xdg = env['XDG_STATE_HOME'];
  return join(xdg !== undefined && xdg !== '' ? xdg : join(home, '.local', 'state'), 'tabpilot');
}

export interface StatePaths {
  root: string;
  /** Sockets and discovery records of running hosts (0700). */
  run: string;
  log: string;
}

export function statePaths(root: string): StatePaths {
  return { root, run: join(root, 'run'), log: join(root, 'host.log') };
}

/**
 * Creates a folder only the user may enter, or tightens one that exists. Refuses a folder owned by
 * someone else or a symlink in its place (another user could then read the socket).
 */
export function ensurePrivateDir(path: string): void {
  mkdirSync(path, { recursive: true, mode: 0o700 });
  const stat = lstatSync(path);
  if (stat.isSymbolicLink() || !stat.isDirectory()) {
    throw new TabpilotError('FORBIDDEN', `${path} is not a plain folder; remove it so tabpilot can create its own`);
  }
  if (typeof process.getuid === 'function' && stat.uid !== process.getuid()) {
    throw new TabpilotError('FORBIDDEN', `${path} belongs to another user (uid ${stat.uid}); set TABPILOT_STATE_DIR`);
  }
  if ((stat.mode & 0o777) !== 0o700 && process.platform !== 'win32') {
    chmodSync(path, 0o700);
  }
}

/** Unix socket paths are limited to about 104 bytes (macOS) or 108 (Linux). */
export const SOCKET_PATH_LIMIT = 100;

/** Where a host with this pid listens: in the run folder, or a short private folder when that is too long. */
export function socketPathFor(paths: StatePaths, pid: number): string {
  const preferred = join(paths.run, `host-${pid}.sock`);
  if (Buffer.byteLength(preferred) <= SOCKET_PATH_LIMIT || process.platform === 'win32') {
    return process.platform === 'win32' ? `\\\\.\\pipe\\tabpilot-${pid}` : preferred;
  }
  const uid = typeof process.getuid === 'function' ? process.getuid() : 0;
  return join('/tmp', `tabpilot-${uid}`, `host-${pid}.sock`);
}
