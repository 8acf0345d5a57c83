import { summaryOf, type RunRecord, type RunStore, type RunSummary } from '../../../agent/run-store';
import type { KeyValueStore } from '../timeline-recorder';
import { SerialQueue } from '../../../shared/serial-queue';

const STORAGE_KEY = 'tabpilot.runs';
/**
 * chrome.storage.local holds 10 MiB for an extension without unlimitedStorage, shared with the settings and
 * the artifacts' index: the past runs take at most this much of it, the oldest dropped first.
 */
export const MAX_RUN_BYTES = 2 * 1024 * 1024;

function isRecord(value: unknown): value is RunRecord {
  return (
    typeof value === 'object' &&
    value !== null &&
    'run_id' in value &&
    typeof value.run_id === 'string' &&
    'steps' in value &&
    Array.isArray(value.steps)
  );
}

/**
 * The past runs in chrome.storage.local, so the panel lists them across panel reopens, worker restarts and
 * browser restarts: at most `cap()` runs (read at each save) and MAX_RUN_BYTES of JSON, the oldest dropped
 * first. Saves are queued one after another, so two runs kept at once do not overwrite each other.
 */
export class StorageRunStore implements RunStore {
  readonly #store: KeyValueStore;
  readonly #cap: () => number;
  readonly #maxBytes: number;
  readonly #queue = new SerialQueue();

  constructor(store: KeyValueStore, cap: () => number, maxBytes = MAX_RUN_BYTES) {
    this.#store = store;
    this.#cap = cap;
    this.#maxBytes = maxBytes;
  }

  save(record: RunRecord): Promise<void> {
    return this.#queue.run(async () => {
      const kept = [...(await this.#read()).filter((old) => old.run_id !== record.run_id), record];
      await this.#store.set(STORAGE_KEY, this.#trim(kept));
    });
  }

  async list(): Promise<RunSummary[]> {
    return (await this.#read()).reverse().map(summaryOf);
  }

  async get(runId: string): Promise<RunRecord | undefined> {
    return (await this.#read()).find((record) => record.run_id === runId);
  }

  /** Oldest first; an entry that is not a run record (a format of an older version) is left out. */
  async #read(): Promise<RunRecord[]> {
    const saved = await this.#store.get(STORAGE_KEY);
    return Array.isArray(saved) ? saved.filter(isRecord) : [];
  }

  #trim(records: RunRecord[]): RunRecord[] {
    let kept = records.slice(Math.max(0, records.length - this.#cap()));
    let bytes = kept.reduce((sum, record) => sum + JSON.stringify(record).length, 0);
    // The newest run is always kept, however large: it is the one the person is looking at.
    while (kept.length > 1 && bytes > this.#maxBytes) {
      bytes -= JSON.stringify(kept[0]).length;
      kept = kept.slice(1);
    }
    return kept;
  }
}
