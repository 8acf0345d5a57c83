import type { BusObserver } from '../../bus/types';
import { viewOfRecord, type EventRecord } from '../../bus/event-record';
import { TimelineEntry, type TimelineEvent, type TimelineNote } from '../../protocol/panel-messages';
import { shortId } from '../../shared/ids';
import type { Logger } from '../../shared/logger';
import { redact, redactString, TIMELINE_LIMITS, type Secret } from '../../shared/redact';

/** A chrome.storage area, reduced to what the recorder needs (chrome.storage.session in the worker). */
export interface KeyValueStore {
  get(key: string): Promise<unknown>;
  set(key: string, value: unknown): Promise<void>;
}

export interface TimelineUpdate {
  reset: boolean;
  entries: TimelineEntry[];
}

const STORAGE_KEY = 'tabpilot.timeline';
const DEFAULT_CAPACITY = 400;
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
  readonly #unsent = new Map<string, TimelineEntry>();
  readonly #listeners = new Set<(update: TimelineUpdate) => void>();
  readonly #store: KeyValueStore;
  readonly #secrets: () => readonly Secret[];
  readonly #capacity: number;
  readonly #log: Logger;
  #pushTimer: ReturnType<typeof setTimeout> | undefined;
  #saveTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(options: { store: KeyValueStore; secrets: () => readonly Secret[]; log: Logger; capacity?: number }) {
    this.#store = options.store;
    this.#secrets = options.secrets;
    this.#log = options.log;
    this.#capacity = options.capacity ?? DEFAULT_CAPACITY;
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
    for (const item of Array.isArray(saved) ? (saved as unknown[]) : []) {
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
    for (const entry of [...restored, ...current]) {
      this.#entries.set(entry.id, entry);
    }
    this.#evict();
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
    this.#unsent.clear();
    this.#emit({ reset: true, entries: [] });
    this.#scheduleSave();
  }

  /** Oldest first. */
  entries(): TimelineEntry[] {
    return [...this.#entries.values()];
  }

  onUpdate(listener: (update: TimelineUpdate) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #fromRecord(record: EventRecord): TimelineEvent {
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
      payload: redact(view.payload, secrets, TIMELINE_LIMITS),
      handlers: view.handlers.map((run) => ({
        handler: run.handler,
        status: run.status,
        ...(run.result === undefined ? {} : { result: redact(run.result, secrets, TIMELINE_LIMITS) }),
        ...(run.error === undefined
          ? {}
          : { error: { code: run.error.code, message: redactString(run.error.message, secrets) } }),
        ...(run.duration_ms === undefined ? {} : { duration_ms: run.duration_ms }),
      })),
    };
  }

  #upsert(entry: TimelineEntry): void {
    this.#entries.set(entry.id, entry);
    this.#evict();
    this.#unsent.set(entry.id, entry);
    if (this.#pushTimer !== undefined) {
      this.#scheduleSave();
      return;
    }
    this.#pushTimer = setTimeout(() => {
      this.#pushTimer = undefined;
      const entries = [...this.#unsent.values()];
      this.#unsent.clear();
      this.#emit({ reset: false, entries });
    }, PUSH_DELAY_MS);
    this.#scheduleSave();
  }

  #evict(): void {
    for (const id of this.#entries.keys()) {
      if (this.#entries.size <= this.#capacity) {
        break;
      }
      this.#entries.delete(id);
    }
  }

  #emit(update: TimelineUpdate): void {
    for (const listener of this.#listeners) {
      listener(update);
    }
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
