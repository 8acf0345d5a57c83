import type { BusObserver } from '../../bus/types';
import { viewOfRecord, type EventRecord } from '../../bus/event-record';
import { TimelineEntry, type TimelineEvent, type TimelineNote } from '../../protocol/panel-messages';
import { shortId } from '../../shared/ids';
import { estimateJsonBytes } from '../../shared/json-size';
import type { Logger } from '../../shared/logger';
import {
  redact,
  redactString,
  TIMELINE_LIMITS,
  TIGHT_TIMELINE_LIMITS,
  type CompactLimits,
  type Secret,
} from '../../shared/redact';

/** A chrome.storage area, reduced to what the recorder needs (chrome.storage.session in the worker). */
export interface KeyValueStore {
  get(key: string): Promise<unknown>;
  set(key: string, value: unknown): Promise<void>;
}

export interface TimelineUpdate {
  reset: boolean;
  entries: TimelineEntry[];
  /** Ids evicted since the last update, which the panels drop too. */
  dropped?: string[];
}

const STORAGE_KEY = 'tabpilot.timeline';
const DEFAULT_CAPACITY = 400;
/**
 * What all entries may add up to (as JSON, estimated). chrome.storage.session holds 10 MB for the whole
 * extension (the controlled tabs are kept there too) and counts a stored value at about 3.5 times its
 * JSON length (measured on Chromium 156), so 1 MiB of entries takes about a third of it.
 */
const DEFAULT_MAX_BYTES = 1024 * 1024;
/** An entry bigger than this, even after the usual cuts, is cut harder (fewer items, shorter strings). */
const MAX_ENTRY_BYTES = 32 * 1024;

/** How much the timeline holds (a debug accessor; nothing here is timed). */
export interface TimelineRetention {
  entries: number;
  bytes: number;
  max_entries: number;
  max_bytes: number;
}
/** Updates to the panels are batched: a navigation fires a burst of events. */
const PUSH_DELAY_MS = 40;
/** Writes to storage are throttled harder; the last state always lands. */
const SAVE_DELAY_MS = 400;

/**
 * The live timeline: every bus event (with its lineage, handlers, durations, results and errors) and
 * the extension's own notes, secrets redacted, bounded, and kept in chrome.storage.session so that a
 * restarted worker shows what happened before it (an event cut short by the restart is marked
 * `interrupted`).
 */
export class TimelineRecorder {
  readonly #entries = new Map<string, TimelineEntry>();
  /** Each entry's estimated size, and their total. */
  readonly #sizes = new Map<string, number>();
  #bytes = 0;
  readonly #maxBytes: number;
  readonly #unsent = new Map<string, TimelineEntry>();
  /** Ids evicted since the last push. */
  #dropped: string[] = [];
  readonly #listeners = new Set<(update: TimelineUpdate) => void>();
  readonly #store: KeyValueStore;
  readonly #secrets: () => readonly Secret[];
  readonly #capacity: number;
  readonly #log: Logger;
  #pushTimer: ReturnType<typeof setTimeout> | undefined;
  #saveTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(options: {
    store: KeyValueStore;
    secrets: () => readonly Secret[];
    log: Logger;
    capacity?: number;
    maxBytes?: number;
  }) {
    this.#store = options.store;
    this.#secrets = options.secrets;
    this.#log = options.log;
    this.#capacity = options.capacity ?? DEFAULT_CAPACITY;
    this.#maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  }

  /** The bus observer to register (bus.observe): one upsert per emitted, started and completed change. */
  readonly observer: BusObserver = ({ record }) => this.#upsert(this.#fromRecord(record));

  /**
   * Puts back what an earlier worker recorded, before anything this one recorded. Returns how many
   * entries came back.
   */
  async restore(): Promise<number> {
    const saved = await this.#store.get(STORAGE_KEY);
    const restored: TimelineEntry[] = [];
    const items: unknown[] = Array.isArray(saved) ? saved : [];
    for (const item of items) {
      const parsed = TimelineEntry.safeParse(item);
      if (!parsed.success) {
        this.#log.warn('dropped a stored timeline entry that does not parse', { error: parsed.error.message });
        continue;
      }
      const entry = parsed.data;
      restored.push(
        entry.kind === 'event' && entry.status !== 'completed' ? { ...entry, status: 'interrupted' } : entry,
      );
    }
    const current = [...this.#entries.values()];
    this.#entries.clear();
    this.#sizes.clear();
    this.#bytes = 0;
    for (const entry of [...restored, ...current]) {
      this.#put(entry);
    }
    this.#evict();
    this.#dropped = [];
    this.#emit({ reset: true, entries: this.entries() });
    this.#scheduleSave();
    return restored.length;
  }

  /**
   * Adds a note. The same note right after itself (an idle worker stopped and woken again and again
   * while a panel stays open) is moved to now instead of repeated.
   */
  note(level: TimelineNote['level'], text: string, source: string | null = 'extension'): void {
    const clean = redactString(text, this.#secrets());
    const last = [...this.#entries.values()].at(-1);
    const repeated = last?.kind === 'note' && last.text === clean && last.level === level && last.source === source;
    this.#upsert({
      kind: 'note',
      id: repeated ? last.id : `note-${shortId(10)}`,
      created_at: Date.now(),
      level,
      source,
      text: clean,
    });
  }

  clear(): void {
    this.#entries.clear();
    this.#sizes.clear();
    this.#bytes = 0;
    this.#unsent.clear();
    this.#dropped = [];
    this.#emit({ reset: true, entries: [] });
    this.#scheduleSave();
  }

  /** Oldest first. */
  entries(): TimelineEntry[] {
    return [...this.#entries.values()];
  }

  retention(): TimelineRetention {
    return { entries: this.#entries.size, bytes: this.#bytes, max_entries: this.#capacity, max_bytes: this.#maxBytes };
  }

  onUpdate(listener: (update: TimelineUpdate) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #fromRecord(record: EventRecord): TimelineEvent {
    const entry = this.#compact(record, TIMELINE_LIMITS);
    return estimateJsonBytes(entry, MAX_ENTRY_BYTES) > MAX_ENTRY_BYTES
      ? this.#compact(record, TIGHT_TIMELINE_LIMITS)
      : entry;
  }

  #compact(record: EventRecord, limits: CompactLimits): TimelineEvent {
    const view = viewOfRecord(record);
    const secrets = this.#secrets();
    return {
      kind: 'event',
      id: view.id,
      type: view.type,
      parent_id: view.parent_id ?? null,
      source: view.source ?? null,
      status: view.status,
      created_at: view.created_at,
      completed_at: view.completed_at ?? null,
      payload: redact(view.payload, secrets, limits),
      handlers: view.handlers.map((run) => ({
        handler: run.handler,
        status: run.status,
        ...(run.result === undefined ? {} : { result: redact(run.result, secrets, limits) }),
        ...(run.error === undefined
          ? {}
          : { error: { code: run.error.code, message: redactString(run.error.message, secrets) } }),
        ...(run.duration_ms === undefined ? {} : { duration_ms: run.duration_ms }),
      })),
    };
  }

  /** Adds or replaces an entry (a replaced one keeps its place), keeping the byte count. */
  #put(entry: TimelineEntry): void {
    const bytes = estimateJsonBytes(entry, this.#maxBytes);
    this.#bytes += bytes - (this.#sizes.get(entry.id) ?? 0);
    this.#sizes.set(entry.id, bytes);
    this.#entries.set(entry.id, entry);
  }

  #upsert(entry: TimelineEntry): void {
    this.#put(entry);
    this.#evict();
    this.#unsent.set(entry.id, entry);
    if (this.#pushTimer !== undefined) {
      this.#scheduleSave();
      return;
    }
    this.#pushTimer = setTimeout(() => {
      this.#pushTimer = undefined;
      const entries = [...this.#unsent.values()];
      const dropped = this.#dropped;
      this.#unsent.clear();
      this.#dropped = [];
      this.#emit({ reset: false, entries, ...(dropped.length === 0 ? {} : { dropped }) });
    }, PUSH_DELAY_MS);
    this.#scheduleSave();
  }

  /** Oldest first, until both the count and the bytes fit (the newest entry always stays). */
  #evict(): void {
    for (const id of this.#entries.keys()) {
      if ((this.#entries.size <= this.#capacity && this.#bytes <= this.#maxBytes) || this.#entries.size === 1) {
        break;
      }
      this.#entries.delete(id);
      if (!this.#unsent.delete(id)) {
        this.#dropped.push(id);
      }
      this.#bytes -= this.#sizes.get(id) ?? 0;
      this.#sizes.delete(id);
    }
  }

  #emit(update: TimelineUpdate): void {
    for (const listener of this.#listeners) {
      listener(update);
    }
  }

  /** Saves the timeline now instead of at the next throttled write (a test reads the store after it). */
  async saveNow(): Promise<void> {
    if (this.#saveTimer !== undefined) {
      clearTimeout(this.#saveTimer);
      this.#saveTimer = undefined;
    }
    await this.#store.set(STORAGE_KEY, this.entries());
  }

  #scheduleSave(): void {
    if (this.#saveTimer !== undefined) {
      return;
    }
    this.#saveTimer = setTimeout(() => {
      this.#saveTimer = undefined;
      this.#store
        .set(STORAGE_KEY, this.entries())
        .catch((error: unknown) => this.#log.warn('could not save the timeline', { error: String(error) }));
    }, SAVE_DELAY_MS);
  }
}
