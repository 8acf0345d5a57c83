import type { AgentStepScreenshot } from '../protocol/events/agent.events';

/** The picture of the page a step acted on, as base64 (what Page.captureScreenshot answers). */
export interface StepShot {
  readonly format: AgentStepScreenshot['format'];
  readonly data: string;
}

/**
 * Where each step's picture is kept, apart from the run's record: a run's steps, the timeline and the
 * `runs` / `run_history` answers stay small, and the panel asks for one picture at a time
 * (`run_screenshot`). In memory in Node, chrome.storage.local in the extension; both drop the oldest
 * pictures first past a byte budget, so older runs lose their pictures before their records.
 */
export interface StepShotStore {
  put(runId: string, step: number, shot: StepShot): Promise<void>;
  get(runId: string, step: number): Promise<StepShot | undefined>;
}

/** Node keeps this much of the pictures in memory: about 500 steps of 480 px JPEGs. */
export const MEMORY_SHOT_BYTES = 8 * 1024 * 1024;

export function shotKey(runId: string, step: number): string {
  return `${runId}/${step}`;
}

/** A picture's size as kept: its base64 text, one byte a character. */
export function shotBytes(shot: StepShot): number {
  return shot.data.length + shot.format.length;
}

/**
 * The pictures kept, oldest first, with their sizes: what is dropped when a new one takes the total
 * past the budget. A picture bigger than the whole budget is dropped at once (it is not kept).
 */
export class ShotBudget {
  readonly #maxBytes: number;
  readonly #sizes = new Map<string, number>();
  #bytes = 0;

  constructor(maxBytes: number, kept: Iterable<readonly [string, number]> = []) {
    this.#maxBytes = maxBytes;
    for (const [key, bytes] of kept) {
      this.#sizes.set(key, bytes);
      this.#bytes += bytes;
    }
  }

  /** Counts a picture in (a key kept already moves to newest); answers the keys dropped to make room. */
  add(key: string, bytes: number): string[] {
    this.#forget(key);
    this.#sizes.set(key, bytes);
    this.#bytes += bytes;
    const dropped: string[] = [];
    for (const [oldest, size] of this.#sizes) {
      if (this.#bytes <= this.#maxBytes) {
        break;
      }
      this.#sizes.delete(oldest);
      this.#bytes -= size;
      dropped.push(oldest);
    }
    return dropped;
  }

  has(key: string): boolean {
    return this.#sizes.has(key);
  }

  get bytes(): number {
    return this.#bytes;
  }

  /** Oldest first, as [key, bytes]: what a store writes down to count them again after a restart. */
  entries(): Array<[string, number]> {
    return [...this.#sizes.entries()];
  }

  #forget(key: string): void {
    const size = this.#sizes.get(key);
    if (size !== undefined) {
      this.#sizes.delete(key);
      this.#bytes -= size;
    }
  }
}

/** The pictures for the life of the process, at most `maxBytes` of them. */
export class MemoryStepShots implements StepShotStore {
  readonly #shots = new Map<string, StepShot>();
  readonly #budget: ShotBudget;

  constructor(maxBytes = MEMORY_SHOT_BYTES) {
    this.#budget = new ShotBudget(maxBytes);
  }

  put(runId: string, step: number, shot: StepShot): Promise<void> {
    const key = shotKey(runId, step);
    this.#shots.set(key, { format: shot.format, data: shot.data });
    for (const dropped of this.#budget.add(key, shotBytes(shot))) {
      this.#shots.delete(dropped);
    }
    return Promise.resolve();
  }

  get(runId: string, step: number): Promise<StepShot | undefined> {
    return Promise.resolve(this.#shots.get(shotKey(runId, step)));
  }

  get bytes(): number {
    return this.#budget.bytes;
  }
}
