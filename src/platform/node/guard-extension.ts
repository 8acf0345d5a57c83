import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GUARD_WORKER_FILE } from '../../browser/security/guard-worker';

const LOAD = '--load-extension=';
const ONLY = '--disable-extensions-except=';

/**
 * Writes the WebSocket guard, an extension with the declarativeNetRequest permission and an empty worker
 * (tabpilot writes its rules through DevTools: browser/security/guard-worker.ts), into a new folder of its
 * own, and returns the folder.
 */
export function writeGuardExtension(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tabpilot-guard-'));
  const manifest = {
    manifest_version: 3,
    name: 'tabpilot WebSocket guard',
    version: '1.0',
    description: "Holds this browser's WebSocket handshakes to tabpilot's URL policy.",
    permissions: ['declarativeNetRequest'],
    background: { service_worker: GUARD_WORKER_FILE },
  };
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2));
  writeFileSync(join(dir, GUARD_WORKER_FILE), '// Rules are written through DevTools; the worker has only to run.\n');
  return dir;
}

/**
 * The flags with the guard loaded beside any extension they already load: Chromium reads one
 * --load-extension (the last), so the guard joins its list, and an allow list of extensions names it too.
 */
export function withGuardExtension(args: readonly string[], dir: string): string[] {
  const joined = args.map((arg) => (arg.startsWith(LOAD) || arg.startsWith(ONLY) ? `${arg},${dir}` : arg));
  return joined.some((arg) => arg.startsWith(LOAD)) ? joined : [...joined, `${LOAD}${dir}`];
}
