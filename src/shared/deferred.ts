/** A promise with its resolve and reject exposed, for hand-off between callbacks. */
export interface Deferred<T> {
  readonly promise: Promise<T>;
  readonly settled: boolean;
  resolve(value: T): void;
  reject(error: unknown): void;
}

export function createDeferred<T>(): Deferred<T> {
  let resolveFn!: (value: T) => void;
  let rejectFn!: (error: unknown) => void;
  let settled = false;
  const promise = new Promise<T>((resolve, reject) => {
    resolveFn = resolve;
    rejectFn = reject;
  });
  return {
    promise,
    get settled() {
      return settled;
    },
    resolve(value) {
      if (!settled) {
        settled = true;
        resolveFn(value);
      }
    },
    reject(error) {
      if (!settled) {
        settled = true;
        rejectFn(error);
      }
    },
  };
}
