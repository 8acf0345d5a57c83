import { z } from 'zod';

/**
 * Whether a file name a client asks tabpilot to write stays inside the output folder: relative, with no
 * `..` part. A model told by a page to save a "screenshot" as ~/.bashrc or ../../somewhere is refused
 * here, for every client, before anything is written.
 */
export function staysInOutputFolder(name: string): boolean {
  if (name.includes('\0') || /^[/\\]/.test(name) || /^[a-zA-Z]:/.test(name)) {
    return false;
  }
  return !name.split(/[/\\]/).some((part) => part === '..');
}

export const OutputFileName = z.string().min(1).refine(staysInOutputFolder, {
  message: 'a name relative to the output folder (output_dir in Node, Downloads/tabpilot in the extension), without ..',
});
