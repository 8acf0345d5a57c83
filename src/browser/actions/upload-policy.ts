import { TabpilotError } from '../../shared/errors';

/** Splits an absolute POSIX or Windows path into its segments, or undefined when it is not absolute. */
function absoluteSegments(path: string): string[] | undefined {
  const windows = /^[A-Za-z]:[\\/]/.test(path);
  if (!windows && !path.startsWith('/')) {
    return undefined;
  }
  const segments = path.split(windows ? /[\\/]+/ : /\/+/).filter((segment) => segment !== '');
  return windows ? segments.map((segment) => segment.toLowerCase()) : segments;
}

function isWithin(path: string[], root: string[]): boolean {
  return root.length <= path.length && root.every((segment, at) => path[at] === segment);
}

/**
 * An upload by path makes the browser read a file on its own machine and hand it to the page, so a
 * client may only name files under the directories the user listed in `upload_paths` (browser-use keeps
 * its agent to `available_file_paths`). The path is checked as written: it must be absolute and free of
 * `.` and `..` segments. Symbolic links cannot be resolved here, since the browser's disk may be another
 * machine's: list only directories whose links you trust.
 */
export function checkUploadPath(path: string, allowed: readonly string[]): void {
  const segments = absoluteSegments(path);
  if (segments === undefined || segments.some((segment) => segment === '.' || segment === '..')) {
    throw new TabpilotError('INVALID_PARAMS', `Upload paths must be absolute, without . or .. segments: ${path}`, {
      details: { path },
    });
  }
  const inside = allowed.some((root) => {
    const rootSegments = absoluteSegments(root);
    return rootSegments !== undefined && isWithin(segments, rootSegments);
  });
  if (!inside) {
    throw new TabpilotError(
      'FORBIDDEN',
      allowed.length === 0
        ? 'Uploads by path are off: list the directories clients may upload from in the config field upload_paths, or send the file content instead'
        : `${path} is outside the directories in upload_paths (${allowed.join(', ')}); send the file content instead`,
      { details: { path } },
    );
  }
}
