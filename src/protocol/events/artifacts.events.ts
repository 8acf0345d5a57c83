import { z } from 'zod';
import { defineEvent } from '../define-event';
import { OutputFileName } from '../output-file-name';

/** Downloads (browser-use's names and fields) and storage state. */

export const DownloadStartedEvent = defineEvent('DownloadStartedEvent', {
  payload: {
    guid: z.string(),
    url: z.string(),
    suggested_filename: z.string(),
    /** Saved by tabpilot itself (a PDF the viewer would show), not by the browser's download. */
    auto_download: z.boolean().default(false),
    /** The tab it started from, when the browser says. */
    target_id: z.string().nullable().default(null),
  },
  result: z.void(),
  timeoutMs: 5_000,
});

export const DownloadProgressEvent = defineEvent('DownloadProgressEvent', {
  payload: {
    guid: z.string(),
    received_bytes: z.number(),
    /** 0 when the size is not known. */
    total_bytes: z.number(),
    state: z.enum(['inProgress', 'completed', 'canceled']),
  },
  result: z.void(),
  timeoutMs: 5_000,
});

export const FileDownloadedEvent = defineEvent('FileDownloadedEvent', {
  payload: {
    guid: z.string().nullable().default(null),
    url: z.string(),
    path: z.string(),
    file_name: z.string(),
    file_size: z.number(),
    /** The extension of the file name (pdf, csv...), or null. */
    file_type: z.string().nullable().default(null),
    mime_type: z.string().nullable().default(null),
    from_cache: z.boolean().default(false),
    auto_download: z.boolean().default(false),
  },
  result: z.void(),
  timeoutMs: 30_000,
});

/** A download a click started, as the click's result reports it. */
export const ClickDownload = z.strictObject({
  url: z.string(),
  suggested_filename: z.string(),
  /** Null while it is still downloading. */
  path: z.string().nullable(),
  file_size: z.number().nullable(),
  mime_type: z.string().nullable(),
  in_progress: z.boolean(),
});
export type ClickDownload = z.infer<typeof ClickDownload>;

const StorageStateCounts = z.strictObject({
  path: z.string(),
  cookies_count: z.number(),
  origins_count: z.number(),
  /** IndexedDB databases saved or loaded (0 unless asked for, or in the file). */
  databases_count: z.number(),
  /** Controlled tabs whose page was left alone (crashed or not responding): their localStorage is not in it. */
  skipped_target_ids: z.array(z.string()),
});

/** Saves the cookies and the storage of every origin open in a controlled tab, in Playwright's format. */
export const SaveStorageStateEvent = defineEvent('SaveStorageStateEvent', {
  payload: {
    path: z.string().min(1).nullable().default(null).meta({ details: 'The file; default the config storage_state' }),
    indexed_db: z.boolean().default(false).meta({
      details:
        "Also save the IndexedDB databases of those origins, as Playwright's storageState({ indexedDB: true }) does",
    }),
    hosts: z.array(z.string().min(1)).nullable().default(null).describe("Only these hosts' cookies and storage").meta({
      details:
        'Only the cookies the browser sends to these hosts and the storage of their origins; null: every cookie of the profile. A program (a native or MCP client) is held to the hosts of its own tabs',
    }),
  },
  result: StorageStateCounts,
  timeoutMs: 45_000,
  description:
    "Save the browser's cookies and the localStorage (and, when asked, the IndexedDB) of the origins open in controlled tabs to a file in Playwright's storageState format (Node: a path under output_dir; the extension: Downloads/tabpilot). The file is written whole or not at all.",
});

/** Loads a storage-state file (or its content): cookies into the browser, storage into each origin. */
export const LoadStorageStateEvent = defineEvent('LoadStorageStateEvent', {
  payload: {
    path: z.string().min(1).nullable().default(null).meta({ details: 'The file; default the config storage_state' }),
    state: z.unknown().optional().describe('A storageState object, instead of path').meta({
      details: "The storage state itself, in Playwright's format, for a client that holds the file's content",
    }),
  },
  result: StorageStateCounts.extend({
    /** Origins with IndexedDB databases and no page open: restored when the first page of theirs opens. */
    pending_origins: z.array(z.string()),
  }),
  timeoutMs: 45_000,
  description:
    "Load a storage-state file (Playwright's format, or one tabpilot saved), or its content as state: cookies into the browser, localStorage and IndexedDB into the pages of each origin, now and when they open. A malformed file is refused whole.",
});

export const StorageStateSavedEvent = defineEvent('StorageStateSavedEvent', {
  payload: { path: z.string(), cookies_count: z.number(), origins_count: z.number() },
  result: z.void(),
  timeoutMs: 30_000,
});

export const StorageStateLoadedEvent = defineEvent('StorageStateLoadedEvent', {
  payload: { path: z.string(), cookies_count: z.number(), origins_count: z.number() },
  result: z.void(),
  timeoutMs: 30_000,
});

/** Starts a HAR recording on request (beside the one the config's record_har_path may keep). */
export const StartHarRecordingEvent = defineEvent('StartHarRecordingEvent', {
  payload: {
    file_name: OutputFileName.default('network.har').meta({
      details:
        'The HAR file, relative to the output folder (output_dir in Node, Downloads/tabpilot in the extension); .har is added when missing',
    }),
    content: z.enum(['omit', 'embed', 'attach']).nullable().default(null).describe('Response bodies').meta({
      details:
        'Response bodies: left out, embedded, or attached as files in a folder beside it; null: the config record_har_content',
    }),
    mode: z
      .enum(['full', 'minimal'])
      .nullable()
      .default(null)
      .describe('minimal: documents and same-origin requests')
      .meta({
        details:
          'full: every request; minimal: the documents and the requests to their own origin; null: the config record_har_mode',
      }),
  },
  result: z.strictObject({ path: z.string() }),
  timeoutMs: 15_000,
  description:
    'Start recording the network traffic of the controlled tabs to a HAR 1.2 file, which is complete after every write; stop_har ends it and answers where it is. One such recording at a time.',
});

/** Ends the recording start_har began: waits for bodies still being fetched, closes the file. */
export const StopHarRecordingEvent = defineEvent('StopHarRecordingEvent', {
  payload: {},
  result: z.strictObject({ path: z.string(), entries: z.number().int() }),
  timeoutMs: 45_000,
  description:
    'Stop the HAR recording start_har began and answer the file (a HAR 1.2 that HAR viewers and Playwright routeFromHAR read) and its number of entries. The MCP answer links the HAR file rather than putting the traffic in the answer.',
});
