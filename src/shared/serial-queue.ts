/**
 * Runs tasks one at a time, each after the one before has settled, in the order they were given. A
 * task's failure is its caller's (the promise `run` returns rejects); the tasks after it still run.
 */
export class SerialQueue {
  #tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.#tail.then(task);
    // The tail only orders the next task; the failure is reported through `result`.
    this.#tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }
}
