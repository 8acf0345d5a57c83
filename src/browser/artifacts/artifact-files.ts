/**
 * Where the artifact watchdogs (HAR, video, storage state, downloads) keep their files. Core code names
 * a file by the path a config field or a client gave (relative to the output folder); the platform
 * resolves it: Node under `output_dir` on disk, the extension under the tabpilot folder of the person's
 * downloads.
 */

/** A file written at byte offsets, so a growing document stays complete after every write. */
export interface RandomAccessFile {
  /** Where the file is (a path on disk, or the download's path). */
  readonly location: string;
  /** Writes `bytes` at `offset` (extending the file); handed to the platform before it resolves. */
  write(offset: number, bytes: Uint8Array): Promise<void>;
  close(): Promise<void>;
}

export interface ArtifactFiles {
  /**
   * Checks where `path` would land and that a file can be written there, refusing one outside the output
   * folder or in a folder that cannot be written with INVALID_PARAMS naming `field`. Returns the location.
   */
  check(path: string, field: string): Promise<string>;
  /** Makes sure a folder exists and can be written (same refusals as `check`); returns its location. */
  folder(path: string, field: string): Promise<string>;
  /** Opens (truncating) a file for writing at offsets. */
  openRandomAccess(path: string, field: string): Promise<RandomAccessFile>;
  /** Writes a whole file; `atomic` writes a temporary file and renames it over the old one. */
  writeFile(
    path: string,
    bytes: Uint8Array,
    options: { field: string; atomic: boolean; mimeType: string },
  ): Promise<string>;
  /** Reads a whole file; NOT_FOUND-like errors are INVALID_PARAMS naming `field` and the file. */
  readFile(path: string, field: string): Promise<Uint8Array>;
}
