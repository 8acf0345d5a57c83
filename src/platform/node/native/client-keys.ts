import { createHash } from 'node:crypto';
import { chmodSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLIENT_KEY_PATTERN } from '../../../protocol/client-key';
import { ensurePrivateDir } from './state-dir';

/**
 * The keys the extension issued to this user's programs when the person allowed one "until revoked":
 * one 0600 file per client name and executable, in a 0700 folder of the state folder. A program that
 * repeats an allowed name from another executable finds no key here, and is asked about as new.
 */
export function clientKeyPath(stateDir: string, client: string, executable: string): string {
  const id = createHash('sha256').update(`${client}\0${executable}`).digest('hex').slice(0, 32);
  return join(stateDir, 'clients', `${id}.key`);
}

/** The key kept for this client and executable, or undefined (none yet, or unreadable, or malformed). */
export function readClientKey(stateDir: string, client: string, executable: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(clientKeyPath(stateDir, client, executable), 'utf8').trim();
  } catch {
    // No key kept yet: the hello goes without one, and the person is asked.
    return undefined;
  }
  return CLIENT_KEY_PATTERN.test(text) ? text : undefined;
}

export function saveClientKey(stateDir: string, client: string, executable: string, key: string): void {
  ensurePrivateDir(join(stateDir, 'clients'));
  const path = clientKeyPath(stateDir, client, executable);
  writeFileSync(path, `${key}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
}

export function forgetClientKey(stateDir: string, client: string, executable: string): void {
  rmSync(clientKeyPath(stateDir, client, executable), { force: true });
}
