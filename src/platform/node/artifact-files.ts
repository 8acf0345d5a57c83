import {
  accessSync,
  closeSync,
  constants,
  existsSync,
  openSync,
  readFileSync,
  realpathSync,
  renameSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import type { ArtifactFiles, RandomAccessFile } from '../../browser/artifacts/artifact-files';
import { TabpilotError, errorMessageOf } from '../../shared/errors';
import { PRIVATE_FILE_MODE, makePrivateDirs } from './private-folder';

function refuse(field: string, message: string): TabpilotError {
  return new TabpilotError('INVALID_PARAMS', `${field}: ${message}`, { details: { field } });
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/** The nearest folder of `path` that exists, through its symbolic links. */
function realAncestor(path: string): string {
  let dir = path;
  while (!existsSync(dir)) {
    dir = dirname(dir);
  }
  return realpathSync(dir);
}

/**
 * Node: artifact files on disk under the output folder. A relative path is taken from `output_dir`; an
 * absolute one only when it lies inside it, symbolic links followed (so a link cannot lead a write out).
 * Offsets are written with synchronous writes: once a write returns the bytes are the kernel's, and a
 * SIGKILL right after cannot take them back.
 */
export function createNodeArtifactFiles(outputDir: () => string): ArtifactFiles {
  const locate = (path: string, field: string): string => {
    const root = resolve(outputDir());
    const target = isAbsolute(path) ? resolve(path) : resolve(root, path);
    if (!inside(root, target) || !inside(realAncestor(root), realAncestor(target))) {
      throw refuse(field, `${path} is outside the output folder ${root} (output_dir)`);
    }
    return target;
  };
  const prepare = (path: string, field: string): string => {
    const target = locate(path, field);
    try {
      makePrivateDirs(dirname(target));
      accessSync(dirname(target), constants.W_OK);
    } catch (error) {
      throw refuse(field, `cannot write in ${dirname(target)}: ${errorMessageOf(error)}`);
    }
    return target;
  };
  return {
    check: (path, field) => Promise.resolve(prepare(path, field)),

    folder: (path, field) => {
      const target = locate(path, field);
      try {
        makePrivateDirs(target);
        accessSync(target, constants.W_OK);
      } catch (error) {
        return Promise.reject(refuse(field, `cannot write in ${target}: ${errorMessageOf(error)}`));
      }
      return Promise.resolve(target);
    },

    openRandomAccess: (path, field) => {
      const location = prepare(path, field);
      let fd: number;
      try {
        fd = openSync(location, 'w', PRIVATE_FILE_MODE);
      } catch (error) {
        return Promise.reject(refuse(field, `cannot write ${location}: ${errorMessageOf(error)}`));
      }
      let open = true;
      const file: RandomAccessFile = {
        location,
        write: (offset, bytes) => {
          let done = 0;
          while (done < bytes.length) {
            done += writeSync(fd, bytes, done, bytes.length - done, offset + done);
          }
          return Promise.resolve();
        },
        close: () => {
          if (open) {
            open = false;
            closeSync(fd);
          }
          return Promise.resolve();
        },
      };
      return Promise.resolve(file);
    },

    writeFile: (path, bytes, options) => {
      const location = prepare(path, options.field);
      if (!options.atomic) {
        writeFileSync(location, bytes, { mode: PRIVATE_FILE_MODE });
        return Promise.resolve(location);
      }
      // A kill between the two steps leaves the old file whole and a stray temporary file, never half a file.
      const temporary = `${location}.${process.pid}.tmp`;
      writeFileSync(temporary, bytes, { mode: PRIVATE_FILE_MODE });
      renameSync(temporary, location);
      return Promise.resolve(location);
    },

    readFile: (path, field) => {
      const location = locate(path, field);
      try {
        return Promise.resolve(new Uint8Array(readFileSync(location)));
      } catch (error) {
        return Promise.reject(refuse(field, `cannot read ${location}: ${errorMessageOf(error)}`));
      }
    },
  };
}
