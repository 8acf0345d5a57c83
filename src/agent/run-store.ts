import type { Flow } from '../protocol/flow';
import type { AgentRunFinishReason, AgentStepScreenshot } from '../protocol/events/agent.events';

export interface RecordedAction {
  readonly name: string;
  readonly params: unknown;
  /** What the model was told the action did; absent when it failed. */
  readonly result?: string | null;
  readonly error?: { readonly code: string | null; readonly message: string };
}

export interface RecordedStep {
  readonly step: number;
  readonly goal: string | null;
  readonly actions: readonly RecordedAction[];
  /**
   * That a picture of the page was kept for the step (`run_screenshot` gives it while the picture store
   * still holds it); absent for a step without one.
   */
  readonly screenshot?: AgentStepScreenshot;
}

/** A finished run, as plain JSON: chrome.storage.local keeps it as it is. */
export interface RunRecord {
  readonly run_id: string;
  /**
   * The program (native or MCP client, as its source `native:name`) whose run it was; absent for the
   * person's own runs. A program sees, reruns and gets the pictures of its own runs only (run-owners.ts).
   */
  readonly owner?: string;
  readonly task: string;
  /** ISO 8601 times. */
  readonly started_at: string;
  readonly finished_at: string;
  readonly reason: AgentRunFinishReason;
  readonly success: boolean;
  readonly text: string;
  readonly steps: readonly RecordedStep[];
  /**
   * The run's acting steps as a flow file (src/protocol/flow.ts, docs/flows.md): what `rerun` replays.
   * Absent for a run no step of which a flow can replay, and for runs kept before runs saved flows.
   */
  readonly flow?: Flow;
}

export interface RunSummary {
  readonly run_id: string;
  readonly owner?: string;
  readonly task: string;
  readonly started_at: string;
  readonly finished_at: string;
  readonly reason: AgentRunFinishReason;
  readonly success: boolean;
  readonly text: string;
  readonly steps: number;
}

/** Where past runs are kept: in memory in Node, chrome.storage.local in the extension. */
export interface RunStore {
  /** Keeps a run (replacing one of the same id); the oldest runs go beyond the store's cap. */
  save(record: RunRecord): Promise<void>;
  /** The kept runs, newest first. */
  list(): Promise<RunSummary[]>;
  get(runId: string): Promise<RunRecord | undefined>;
}

export function summaryOf(record: RunRecord): RunSummary {
  return {
    run_id: record.run_id,
    ...(record.owner === undefined ? {} : { owner: record.owner }),
    task: record.task,
    started_at: record.started_at,
    finished_at: record.finished_at,
    reason: record.reason,
    success: record.success,
    text: record.text,
    steps: record.steps.length,
  };
}

/** Runs kept for the life of the process, at most `cap` of them. */
export class MemoryRunStore implements RunStore {
  readonly #cap: () => number;
  /** Oldest first, as they were saved. */
  #records: RunRecord[] = [];

  /** `cap` is read at each save, so a settings change applies to the next run kept. */
  constructor(cap: number | (() => number)) {
    this.#cap = typeof cap === 'number' ? () => cap : cap;
  }

  save(record: RunRecord): Promise<void> {
    // A copy through JSON: what is kept is what a storage area would keep, not live objects of the run.
    const kept = JSON.parse(JSON.stringify(record)) as RunRecord;
    this.#records = [...this.#records.filter((old) => old.run_id !== record.run_id), kept];
    const cap = this.#cap();
    if (this.#records.length > cap) {
      this.#records = this.#records.slice(this.#records.length - cap);
    }
    return Promise.resolve();
  }

  list(): Promise<RunSummary[]> {
    return Promise.resolve([...this.#records].reverse().map(summaryOf));
  }

  get(runId: string): Promise<RunRecord | undefined> {
    return Promise.resolve(this.#records.find((record) => record.run_id === runId));
  }
}
