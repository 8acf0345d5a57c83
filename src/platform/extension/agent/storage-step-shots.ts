import { ShotBudget, shotBytes, shotKey, type StepShot, type StepShotStore } from '../../../agent/step-shots';
import { isOneOf } from '../../../shared/narrow';
import { SerialQueue } from '../../../shared/serial-queue';

/** A chrome.storage area, reduced to what the picture store needs (it drops keys, unlike a KeyValueStore). */
export interface ShotArea {
  get(key: string): Promise<unknown>;
  set(items: Record<string, unknown>): Promise<void>;
  remove(keys: string[]): Promise<void>;
}

const INDEX_KEY = 'tabpilot.run_shots';
const SHOT_PREFIX = 'tabpilot.run_shot.';
/**
 * chrome.storage.local holds 10 MiB for an extension without unlimitedStorage, shared with the past runs'
 * records (2 MiB), the settings and the artifacts' index: the steps' pictures take at most this much,
 * about 300 steps of 480 px JPEGs, the oldest dropped first.
 */
export const MAX_SHOT_BYTES = 3 * 1024 * 1024;

const SHOT_FORMATS = ['png', 'jpeg', 'webp'] as const;

function isShot(value: unknown): value is StepShot {
  return (
    typeof value === 'object' &&
    value !== null &&
    'data' in value &&
    typeof value.data === 'string' &&
    'format' in value &&
    isOneOf(SHOT_FORMATS, value.format)
  );
}

function isEntry(value: unknown): value is [string, number] {
  return Array.isArray(value) && typeof value[0] === 'string' && typeof value[1] === 'number';
}

/**
 * The steps' pictures in chrome.storage.local, one key each (a picture is read without reading the others),
 * and an index of their keys and sizes, oldest first, so a restarted worker keeps counting the budget.
 * Writes are queued one after another, so two steps kept at once do not overwrite each other's index.
 */
export class StorageStepShots implements StepShotStore {
  readonly #area: ShotArea;
  readonly #maxBytes: number;
  #budget: ShotBudget | undefined;
  readonly #queue = new SerialQueue();

  constructor(area: ShotArea, maxBytes = MAX_SHOT_BYTES) {
    this.#area = area;
    this.#maxBytes = maxBytes;
  }

  put(runId: string, step: number, shot: StepShot): Promise<void> {
    return this.#queue.run(async () => {
      const budget = await this.#loadBudget();
      const key = shotKey(runId, step);
      const dropped = budget.add(key, shotBytes(shot));
      const kept = budget.has(key);
      await this.#area.set({
        ...(kept ? { [SHOT_PREFIX + key]: { format: shot.format, data: shot.data } } : {}),
        [INDEX_KEY]: budget.entries(),
      });
      if (dropped.length > 0) {
        await this.#area.remove(dropped.map((old) => SHOT_PREFIX + old));
      }
    });
  }

  async get(runId: string, step: number): Promise<StepShot | undefined> {
    const saved = await this.#area.get(SHOT_PREFIX + shotKey(runId, step));
    return isShot(saved) ? { format: saved.format, data: saved.data } : undefined;
  }

  async #loadBudget(): Promise<ShotBudget> {
    if (this.#budget === undefined) {
      const index = await this.#area.get(INDEX_KEY);
      this.#budget = new ShotBudget(this.#maxBytes, Array.isArray(index) ? index.filter(isEntry) : []);
    }
    return this.#budget;
  }
}
