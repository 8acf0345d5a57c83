/**
 * What is wrong with a tab right now, as the guard watchdogs see it: its page crashed, its main thread
 * is stuck, or it shows a challenge a person must solve. Each kind has one owner (the crash watchdog
 * sets crashed and unresponsive, the captcha watchdog sets captcha); the tab gate, the state, `tabs`
 * and the panel read them.
 */
export type TabStatus = 'ok' | 'crashed' | 'unresponsive' | 'needs_person' | 'solving';
export type ConditionKind = 'crashed' | 'unresponsive' | 'captcha';

/** How an event treats a tab: changes it (acts), only looks at it (reads), or may bring it back (recovers). */
export type GateClass = 'act' | 'read' | 'recover';

export interface Admission {
  /** The latest moment the event may wait until (its own handler timeout, less a margin). */
  readonly deadline: number;
  readonly signal: AbortSignal;
}

export interface TabCondition {
  readonly kind: ConditionKind;
  readonly status: Exclude<TabStatus, 'ok'>;
  /** One sentence for clients, the state and the panel. */
  readonly reason: string;
  readonly since: number;
  /** Lets an event on the tab run (resolves), refuses it (throws), or holds it until the condition clears. */
  admit(gate: GateClass, admission: Admission): Promise<void> | void;
}

const PRIORITY: Record<ConditionKind, number> = { crashed: 0, unresponsive: 1, captcha: 2 };

export class TabConditions {
  readonly #byTarget = new Map<string, Map<ConditionKind, TabCondition>>();
  readonly #notes = new Map<string, Map<string, string>>();
  readonly #listeners = new Set<() => void>();
  #waiters: Array<() => void> = [];

  set(targetId: string, condition: TabCondition): void {
    let conditions = this.#byTarget.get(targetId);
    if (conditions === undefined) {
      conditions = new Map();
      this.#byTarget.set(targetId, conditions);
    }
    conditions.set(condition.kind, condition);
    this.#changed();
  }

  clear(targetId: string, kind: ConditionKind): void {
    const conditions = this.#byTarget.get(targetId);
    if (conditions?.delete(kind) === true) {
      if (conditions.size === 0) {
        this.#byTarget.delete(targetId);
      }
      this.#changed();
    }
  }

  forget(targetId: string): void {
    this.#notes.delete(targetId);
    if (this.#byTarget.delete(targetId)) {
      this.#changed();
    }
  }

  /** Something worth telling about a tab that blocks nothing (a request with no answer), keyed by its owner. */
  note(targetId: string, key: string, text: string): void {
    let notes = this.#notes.get(targetId);
    if (notes === undefined) {
      notes = new Map();
      this.#notes.set(targetId, notes);
    }
    notes.set(key, text);
  }

  unnote(targetId: string, key: string): void {
    this.#notes.get(targetId)?.delete(key);
  }

  notesOf(targetId: string): string[] {
    return [...(this.#notes.get(targetId)?.values() ?? [])];
  }

  get(targetId: string, kind: ConditionKind): TabCondition | undefined {
    return this.#byTarget.get(targetId)?.get(kind);
  }

  /** The tab's conditions, the most serious first. */
  of(targetId: string): TabCondition[] {
    return [...(this.#byTarget.get(targetId)?.values() ?? [])].sort((a, b) => PRIORITY[a.kind] - PRIORITY[b.kind]);
  }

  status(targetId: string): { status: TabStatus; reason: string | null } {
    const first = this.of(targetId)[0];
    return first === undefined ? { status: 'ok', reason: null } : { status: first.status, reason: first.reason };
  }

  /** Resolves at the next change of any tab's conditions. */
  nextChange(): Promise<void> {
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #changed(): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const resolve of waiters) {
      resolve();
    }
    for (const listener of this.#listeners) {
      listener();
    }
  }
}
