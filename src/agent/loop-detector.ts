import type { ModelAction } from './model';

/**
 * The same actions chosen on the same page, step after step, is a model stuck in a loop (browser-use
 * nudges it rather than stopping it): after `repeats` identical steps in a row the next prompt says so.
 */
export class LoopDetector {
  readonly #repeats: number;
  #last: string | undefined;
  #count = 0;

  constructor(repeats: number) {
    this.#repeats = repeats;
  }

  /** Records a step; answers the warning for the model when the step repeats the last ones. */
  record(pageFingerprint: string, actions: readonly ModelAction[]): string | null {
    const key = `${pageFingerprint}\u0000${JSON.stringify(actions.map((action) => [action.name, action.params]))}`;
    this.#count = key === this.#last ? this.#count + 1 : 1;
    this.#last = key;
    if (this.#count < this.#repeats) {
      return null;
    }
    return `You chose the same actions on the same page ${this.#count} times in a row and nothing changed. Do something different, or finish with done if the task cannot be completed.`;
  }
}
