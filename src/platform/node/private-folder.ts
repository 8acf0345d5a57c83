import { chmodSync, lstatSync, mkdirSync } from 'node:fs';
import { TabpilotError, errorMessageOf } from '../../shared/errors';

/**
 * On a shared machine what tabpilot writes (storage states, HARs, page text, screenshots) is the person's
 * alone: the folders it creates are 0700 and its files 0600, whatever the umask lets through.
 */
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Creates `path` and any missing parent as private folders; folders already there are left as they are. */
export function makePrivateDirs(path: string): void {
  mkdirSync(path, { recursive: true, mode: PRIVATE_DIR_MODE });
}

/**
 * A folder of tabpilot's own (the MCP server's output): created private, or made private when it is
 * there already. One that is not a folder (a symbolic link someone put in its place) or belongs to
 * another user is refused: on a shared /tmp another account could have made it to read what lands there.
 */
export function ensurePrivateFolder(path: string, field: string): void {
  try {
    makePrivateDirs(path);
  } catch (error) {
    throw new TabpilotError('INVALID_PARAMS', `${field}: cannot create ${path}: ${errorMessageOf(error)}`, {
      details: { field },
    });
  }
  const stats = lstatSync(path);
  const uid = process.getuid?.();
  if (!stats.isDirectory() || (uid !== undefined && stats.uid !== uid)) {
    throw new TabpilotError(
      'INVALID_PARAMS',
      `${field}: ${path} is ${stats.isDirectory() ? `owned by another user (uid ${stats.uid})` : 'not a folder'}; tabpilot keeps its files only in a private folder of its own: name another one`,
      { details: { field } },
    );
  }
  chmodSync(path, PRIVATE_DIR_MODE);
}
