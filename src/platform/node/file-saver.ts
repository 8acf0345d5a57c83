import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import type { FileSaver } from '../../browser/host';

/** Node: files land on disk, relative names under the configured output folder. */
export function createNodeFileSaver(outputDir: () => string): FileSaver {
  return {
    save: (fileName, base64) => {
      const path = isAbsolute(fileName) ? fileName : resolve(outputDir(), fileName);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, Buffer.from(base64, 'base64'));
      return Promise.resolve(path);
    },
  };
}
