/** Larger storage states would make one message of tens of megabytes through the panel's port. */
export const MAX_STATE_BYTES = 25 * 1024 * 1024;

/** The name an export is saved under in Downloads/tabpilot: the moment, so exports never overwrite. */
export function exportFileName(now: Date): string {
  const stamp = now
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replace(/[:]/g, '-');
  return `storage-state-${stamp}.json`;
}

/**
 * Reads a storage-state file the person picked as JSON, for load_storage_state's `state` (the worker
 * checks its shape and refuses a wrong one whole); a file that is not JSON is refused here, naming it.
 */
export async function readStateFile(file: File): Promise<unknown> {
  if (file.size > MAX_STATE_BYTES) {
    throw new Error(`${file.name} is larger than ${MAX_STATE_BYTES / 1024 / 1024} MB`);
  }
  const text = await file.text();
  try {
    const state: unknown = JSON.parse(text);
    return state;
  } catch (error) {
    throw new Error(`${file.name} is not JSON (${error instanceof Error ? error.message : String(error)})`, {
      cause: error,
    });
  }
}
