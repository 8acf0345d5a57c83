import { writeFileSync } from 'node:fs';
import { dirname, extname, isAbsolute, resolve } from 'node:path';
import type { FileSaver } from '../../browser/host';
import { PRIVATE_FILE_MODE, makePrivateDirs } from './private-folder';
import { systemErrorCode } from '../../shared/narrow';

const MAX_NUMBERED = 10_000;

/**
 * Node: files land on disk, relative names under the configured output folder. An existing file is
 * never overwritten: the new one is named `name (1).png`, `name (2).png`, ... as Chrome's downloads
 * name theirs, so saving is additive on both transports.
 */
export function createNodeFileSaver(outputDir: () => string): FileSaver {
  return {
    save: (fileName, base64) => {
      const path = isAbsolute(fileName) ? fileName : resolve(outputDir(), fileName);
      makePrivateDirs(dirname(path));
      return Promise.resolve(writeNew(path, Buffer.from(base64, 'base64')));
    },
  };
}

/** Writes to `path`, or to the first free numbered name beside it; returns where it wrote. */
function writeNew(path: string, bytes: Buffer): string {
  const extension = extname(path);
  const stem = path.slice(0, path.length - extension.length);
  for (let n = 0; n <= MAX_NUMBERED; n++) {
    const candidate = n === 0 ? path : `${stem} (${n})${extension}`;
    try {
      // 'wx' fails when the file exists, so two savers racing for one name never share it.
      writeFileSync(candidate, bytes, { flag: 'wx', mode: PRIVATE_FILE_MODE });
      return candidate;
    } catch (error) {
      if (systemErrorCode(error) !== 'EEXIST') {
        throw error;
      }
    }
  }
  throw new Error(`${MAX_NUMBERED} files named like ${path} exist already`);
}
