import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/**
 * The browser profile that started this host, read from the parent process's command line (Chrome
 * passes the host only the caller's origin). Null when the parent names none (the default profile)
 * or cannot be read.
 */
export function parentUserDataDir(ppid: number = process.ppid, platform: string = process.platform): string | null {
  const args = parentArgs(ppid, platform);
  for (const arg of args) {
    if (arg.startsWith('--user-data-dir=')) {
      return arg.slice('--user-data-dir='.length);
    }
  }
  return null;
}

function parentArgs(ppid: number, platform: string): string[] {
  try {
    if (platform === 'linux') {
      return readFileSync(`/proc/${ppid}/cmdline`, 'utf8').split('\0');
    }
    if (platform === 'darwin') {
      // ps joins the arguments with spaces; a profile path with spaces is cut at the first one.
      return execFileSync('ps', ['-o', 'command=', '-p', String(ppid)], { encoding: 'utf8' })
        .trim()
        .split(/\s+(?=--)/);
    }
  } catch {
    // The parent is gone or hidden: the profile is simply not known.
    return [];
  }
  return [];
}
