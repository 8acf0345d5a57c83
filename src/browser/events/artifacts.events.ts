import { z } from 'zod';
import { defineEvent } from '../../bus/define-event';

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

const StorageStateCounts = z.strictObject({
  path: z.string(),
  cookies_count: z.number(),
  origins_count: z.number(),
});

/** Saves the cookies and the storage of every origin open in a controlled tab, in Playwright's format. */
export const SaveStorageStateEvent = defineEvent('SaveStorageStateEvent', {
  payload: {
    path: z.string().min(1).nullable().default(null).describe('The file; default the config storage_state'),
  },
  result: StorageStateCounts,
  timeoutMs: 45_000,
});

/** Loads a storage-state file (or its content): cookies into the browser, storage into each origin. */
export const LoadStorageStateEvent = defineEvent('LoadStorageStateEvent', {
  payload: {
    path: z.string().min(1).nullable().default(null).describe('The file; default the config storage_state'),
    state: z
      .unknown()
      .optional()
      .describe("The storage state itself, in Playwright's format, for a client that holds the file's content"),
  },
  result: StorageStateCounts,
  timeoutMs: 45_000,
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
