/**
 * The flows the side panel keeps for the person (besides the files in Downloads): each one they record
 * in the panel and each file they import, with the panel's edits. Kept in the extension's storage under
 * one key, at most MAX_KEPT_FLOWS of them; every flow is checked by the flow schema when it goes in and
 * when it is read, so the list only ever holds flows replay accepts.
 */
import { z } from 'zod';
import { Flow, parseFlow } from '../../../protocol/flow';
import { TabpilotError } from '../../../shared/errors';
import { shortId } from '../../../shared/ids';

/** A person keeps a working set of flows here; the files stay in Downloads/tabpilot without a bound. */
export const MAX_KEPT_FLOWS = 50;
export const KEPT_FLOWS_KEY = 'tabpilot.panel.flows';

const KeptFlowSchema = z.strictObject({
  id: z.string().min(1),
  /** When it was recorded or imported (ISO 8601). */
  kept_at: z.string(),
  source: z.enum(['recorded', 'imported']),
  flow: Flow,
});
export type KeptFlow = z.output<typeof KeptFlowSchema>;

/** The slice of a storage area the library needs (chrome.storage.local in the panel; a map in tests). */
export interface FlowStorage {
  get(key: string): Promise<unknown>;
  set(key: string, value: unknown): Promise<void>;
  /** Calls back when the key changes, from this panel or another window's. Answers the unsubscribe. */
  watch(key: string, listener: () => void): () => void;
}

export class FlowLibrary {
  readonly #storage: FlowStorage;
  readonly #now: () => Date;
  /** Writes run one after another, so two quick edits never read the same list and lose one. */
  #writing: Promise<unknown> = Promise.resolve();

  constructor(storage: FlowStorage, now: () => Date = () => new Date()) {
    this.#storage = storage;
    this.#now = now;
  }

  /** The kept flows, newest first. An entry that no longer reads as a flow is left out, not dropped. */
  async list(): Promise<KeptFlow[]> {
    return (await this.#raw()).flatMap((entry) => {
      const kept = KeptFlowSchema.safeParse(entry);
      return kept.success ? [kept.data] : [];
    });
  }

  /** Keeps a flow (checked whole first); refused when MAX_KEPT_FLOWS are kept already, losing none. */
  add(flow: unknown, source: KeptFlow['source']): Promise<KeptFlow> {
    return this.#write((entries) => {
      if (entries.length >= MAX_KEPT_FLOWS) {
        throw new TabpilotError(
          'INVALID_PARAMS',
          `flow: the panel keeps ${MAX_KEPT_FLOWS} flows and has that many; delete one to keep this`,
          { details: { field: 'flow' } },
        );
      }
      const kept: KeptFlow = { id: shortId(10), kept_at: this.#now().toISOString(), source, flow: parseFlow(flow) };
      return { entries: [kept, ...entries], result: kept };
    });
  }

  /** Replaces a kept flow with its edited version (checked whole); an id no longer kept is ELEMENT_NOT_FOUND. */
  update(id: string, flow: Flow): Promise<KeptFlow> {
    return this.#write((entries) => {
      const at = entries.findIndex((entry) => idOf(entry) === id);
      const current = KeptFlowSchema.safeParse(entries[at]);
      if (at < 0 || !current.success) {
        throw new TabpilotError('ELEMENT_NOT_FOUND', `the panel keeps no flow ${id} (deleted in another window?)`);
      }
      const kept = { ...current.data, flow: parseFlow(flow) };
      return { entries: entries.map((entry, index) => (index === at ? kept : entry)), result: kept };
    });
  }

  remove(id: string): Promise<void> {
    return this.#write((entries) => ({
      entries: entries.filter((entry) => idOf(entry) !== id),
      result: undefined,
    }));
  }

  watch(listener: () => void): () => void {
    return this.#storage.watch(KEPT_FLOWS_KEY, listener);
  }

  async #raw(): Promise<unknown[]> {
    const stored = z.array(z.unknown()).safeParse(await this.#storage.get(KEPT_FLOWS_KEY));
    return stored.success ? stored.data : [];
  }

  #write<T>(change: (entries: unknown[]) => { entries: unknown[]; result: T }): Promise<T> {
    const next = this.#writing.then(async () => {
      const { entries, result } = change(await this.#raw());
      await this.#storage.set(KEPT_FLOWS_KEY, entries);
      return result;
    });
    // The chain goes on after a refused write; the refusal is the caller's to show.
    this.#writing = next.catch(() => undefined);
    return next;
  }
}

function idOf(entry: unknown): unknown {
  return z.looseObject({ id: z.string() }).safeParse(entry).data?.id;
}

/** chrome.storage.local as the library's storage. */
export function chromeFlowStorage(): FlowStorage {
  return {
    get: async (key) => (await chrome.storage.local.get(key))[key],
    set: (key, value) => chrome.storage.local.set({ [key]: value }),
    watch: (key, listener) => {
      const onChanged = (changes: Record<string, unknown>, area: string): void => {
        if (area === 'local' && key in changes) {
          listener();
        }
      };
      chrome.storage.onChanged.addListener(onChanged);
      return () => chrome.storage.onChanged.removeListener(onChanged);
    },
  };
}
