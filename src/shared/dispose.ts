/** Runs every disposer once `signal` aborts (a watchdog detached, a follower stopped). */
export function disposeOnAbort(signal: AbortSignal, disposers: readonly (() => void)[]): void {
  signal.addEventListener(
    'abort',
    () => {
      for (const dispose of disposers) {
        dispose();
      }
    },
    { once: true },
  );
}
