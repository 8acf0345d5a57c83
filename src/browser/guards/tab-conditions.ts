import type { GateClass } from '../../protocol/actions';

export type { GateClass };
/**
 * What is wrong with a tab right now, as the guard watchdogs see it: its page crashed, its main thread
 * is stuck, it shows a challenge a person must solve, or a JavaScript dialog left open blocks it. Each
 * kind has one owner (the crash watchdog sets crashed and unresponsive, the captcha watchdog captcha,
 * the popups watchdog dialog); the tab gate, the state, `tabs` and the panel read them.
 */
export type TabStatus = 'ok' | 'crashed' | 'unresponsive' | 'needs_person' | 'solving';
export type ConditionKind = 'crashed' | 'unresponsive' | 'captcha' | 'dialog';

export interface Admission {
  /** The latest moment the event may wait until (its own handler timeout, less a margin). */
  readonly deadline: number;
  readonly signal: AbortSignal;
}

export interface TabCondition {
  readonly kind: ConditionKind;
  /** The tab's status while it holds; null for a condition that is no fault of the tab (a dialog to answer). */
  readonly status: Exclude<TabStatus, 'ok'> | null;
  /** One sentence for clients, the state and the panel. */
  readonly reason: string;
  readonly since: number;
  /** Lets an event on the tab run (resolves), refuses it (throws), or holds it until the condition clears. */
  admit(gate: GateClass, admission: Admission): Promise<void> | void;
}

/** A JavaScript dialog open in a tab, as the page asked it. */
export interface OpenDialog {
  readonly dialog_type: 'alert' | 'confirm' | 'prompt' | 'beforeunload';
  readonly message: string;
  /** What a prompt() offers before anything is typed; null for the other kinds. */
  readonly default_prompt: string | null;
  readonly url: string;
  readonly frame_id: string | null;
}

export interface DialogCondition extends TabCondition {
  readonly kind: 'dialog';
  readonly dialog: OpenDialog;
}

type ConditionOf<K extends ConditionKind> = K extends 'dialog' ? DialogCondition : TabCondition;

const PRIORITY: Record<ConditionKind, number> = { crashed: 0, unresponsive: 1, captcha: 2, dialog: 3 };

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

  get<K extends ConditionKind>(targetId: string, kind: K): ConditionOf<K> | undefined {
    // set() keys each condition by its own kind, so the one under 'dialog' is a DialogCondition.
    return this.#byTarget.get(targetId)?.get(kind) as ConditionOf<K> | undefined;
  }

  /** The tab's conditions, the most serious first. */
  of(targetId: string): TabCondition[] {
    return [...(this.#byTarget.get(targetId)?.values() ?? [])].sort((a, b) => PRIORITY[a.kind] - PRIORITY[b.kind]);
  }

  status(targetId: string): { status: TabStatus; reason: string | null } {
    for (const condition of this.of(targetId)) {
      if (condition.status !== null) {
        return { status: condition.status, reason: condition.reason };
      }
    }
    return { status: 'ok', reason: null };
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
