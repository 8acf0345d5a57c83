import { TabpilotError } from '../shared/errors';
import type { PermissionGranter } from './permissions/permission-granter';
import type { ArtifactFiles } from './artifacts/artifact-files';

/**
 * BrowserHost: what CDP cannot do the same way everywhere. Each platform implements it
 * (platform/node, platform/extension); watchdogs and handlers see only this port.
 */

/** One tab of the browser as the host sees it, controlled or not. */
export interface HostTab {
  target_id: string;
  title: string;
  url: string;
  /** The selected tab of its window. */
  active: boolean;
}

/**
 * Tabs tabpilot does not own (the extension works only in tabs it was given). Absent where tabpilot owns
 * the whole browser (Node), where every page is already under control.
 */
export interface TabControl {
  /** Every tab of the browser, for `tabs {all: true}`. */
  listAll(): Promise<HostTab[]>;
  /**
   * Puts a tab under control (the given one, or the active tab of the last focused window) and
   * returns its target id. Refuses chrome:// and other extensions' pages with a clear error.
   */
  attach(targetId: string | undefined): Promise<string>;
  /** Lets one controlled tab go (its debugger detaches). */
  release(targetId: string): Promise<void>;
}

/** Saving a file a command produced (a screenshot, a PDF), where the platform keeps files. */
export interface FileSaver {
  /**
   * Writes the bytes (base64) under `fileName` and returns where they landed. Node: a path (relative to
   * the output folder unless absolute); the extension: a download into tabpilot/ under the user's
   * downloads folder.
   */
  save(fileName: string, base64: string, mimeType: string): Promise<string>;
}

/** A download the host placed and saw finish. */
export interface PlacedDownload {
  url: string;
  /** Where the file is (full path). */
  path: string;
  size: number;
  mime_type: string | null;
}

/**
 * Where downloads from controlled tabs go, where the Browser domain cannot say (the extension:
 * chrome.downloads into Downloads/tabpilot). Node needs none: the Downloads watchdog tells the browser
 * itself (Browser.setDownloadBehavior).
 */
export interface DownloadHost {
  /**
   * Places every download whose URL `isOurs` claims (it started in a controlled tab) into the tabpilot
   * folder, leaving the person's other downloads alone, and reports each when it finishes or fails.
   */
  watch(hooks: {
    isOurs(url: string): boolean;
    finished(download: PlacedDownload): void;
    failed(url: string, reason: string): void;
  }): () => void;
}

/** One frame of a recording: a JPEG (base64) shown from `timestamp` for `duration`, in seconds of video. */
export interface TimedFrame {
  data: string;
  timestamp: number;
  duration: number;
}

/** A video file being written; frames arrive in order, each with its timing already known. */
export interface VideoSink {
  add(frame: TimedFrame): Promise<void>;
  /** Writes the file and resolves with where it landed (a path, or the downloaded file's path). */
  finish(): Promise<string>;
  /** Drops what was written (a recording that failed). */
  discard(): Promise<void>;
}

/** Where a platform encodes recordings to WebM (Node: ffmpeg; the extension: WebCodecs offscreen). */
export interface VideoRecorderPort {
  /**
   * Opens a WebM file of fixed frame size (frames of other sizes are letterboxed into it). `dir` is the
   * configured record_video_dir; the extension saves into tabpilot/ under the downloads folder instead.
   */
  open(options: { dir: string; fileName: string; width: number; height: number }): Promise<VideoSink>;
}

/** Resolving host names the way the machine does, for block_ip_addresses at request time (Node). */
export interface HostResolver {
  /** Every address the name resolves to now; rejects when it does not resolve. */
  addresses(hostname: string): Promise<readonly string[]>;
}

export interface BrowserHost {
  readonly tabControl: TabControl | undefined;
  /** Absent where the platform cannot save files; saving then fails with UNSUPPORTED. */
  readonly files?: FileSaver;
  /** Grants the config's `permissions`; absent where the platform cannot (a config naming any is refused). */
  readonly permissions?: PermissionGranter;
  /** The files the artifact watchdogs keep (HAR, video, storage state); absent: they answer UNSUPPORTED. */
  readonly artifacts?: ArtifactFiles;
  /** Placing downloads where CDP cannot (the extension). */
  readonly downloads?: DownloadHost;
  /** Absent where the platform cannot encode video; recording is then refused with UNSUPPORTED. */
  readonly video?: VideoRecorderPort;
  /**
   * Resolves host names, so block_ip_addresses also refuses a name that resolves to a private or
   * loopback address; absent where the platform has no DNS API (the extension).
   */
  readonly resolver?: HostResolver;
}

export function requireArtifacts(host: BrowserHost): ArtifactFiles {
  if (host.artifacts === undefined) {
    throw new TabpilotError('UNSUPPORTED', 'Keeping files is not available here');
  }
  return host.artifacts;
}

/** Saves through the host, or says plainly that this platform cannot. */
export async function saveFile(
  files: FileSaver | undefined,
  fileName: string,
  base64: string,
  mimeType: string,
): Promise<string> {
  if (files === undefined) {
    throw new TabpilotError('UNSUPPORTED', 'Saving files is not available here');
  }
  return files.save(fileName, base64, mimeType);
}
