/** Remembers that a stop let go of every tab, until a tab is controlled again (the toolbar's "stopped"). */
export class StopMemory {
  #stopped = false;

  noteStopped(): void {
    this.#stopped = true;
  }

  /** Whether the last thing that happened is a stop: any controlled tab ends it. */
  stopped(controlledCount: number): boolean {
    if (controlledCount > 0) {
      this.#stopped = false;
    }
    return this.#stopped;
  }
}
