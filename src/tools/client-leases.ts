/**
 * Which client owns which tab, and which tab each client works in. A tab has at most one owner (the
 * client that opened or attached it, or whose tab opened it); a client's focus is one of its own tabs.
 * Clients are known by name, so two runs of the same CLI are one client and keep their tabs. Plain
 * data with change notifications; the gate decides what a lease allows.
 */

export interface LeaseSnapshot {
  /** [target id, client name] */
  owners: Array<[string, string]>;
  /** [client name, target id] */
  focus: Array<[string, string]>;
}

export class ClientLeases {
  readonly #owner = new Map<string, string>();
  readonly #focus = new Map<string, string>();
  readonly #listeners = new Set<() => void>();

  owner(targetId: string): string | undefined {
    return this.#owner.get(targetId);
  }

  focusOf(client: string): string | undefined {
    return this.#focus.get(client);
  }

  /** The client's tabs, oldest lease first. */
  tabsOf(client: string): string[] {
    return [...this.#owner].filter(([, owner]) => owner === client).map(([targetId]) => targetId);
  }

  /** Every client that holds a lease or a focus. */
  clients(): string[] {
    return [...new Set([...this.#owner.values(), ...this.#focus.keys()])];
  }

  /** Gives the tab to the client; `focus` also makes it the tab the client works in. */
  lease(client: string, targetId: string, options: { focus?: boolean } = {}): void {
    const previous = this.#owner.get(targetId);
    if (previous !== undefined && previous !== client) {
      this.#dropFocus(previous, targetId);
    }
    // Re-inserting keeps the order "oldest lease first" meaningful for focus fallback.
    this.#owner.delete(targetId);
    this.#owner.set(targetId, client);
    if (options.focus === true) {
      this.#focus.set(client, targetId);
    }
    this.#changed();
  }

  setFocus(client: string, targetId: string): void {
    if (this.#focus.get(client) !== targetId) {
      this.#focus.set(client, targetId);
      this.#changed();
    }
  }

  /** Ends the tab's lease (release, the tab closed); its owner's focus moves to its newest other tab. */
  end(targetId: string): string | undefined {
    const owner = this.#owner.get(targetId);
    if (owner === undefined) {
      return undefined;
    }
    this.#owner.delete(targetId);
    this.#dropFocus(owner, targetId);
    this.#changed();
    return owner;
  }

  /** Ends every lease of a client (the person disconnected it) and forgets its focus. */
  endAll(client: string): string[] {
    const ended = this.tabsOf(client);
    for (const targetId of ended) {
      this.#owner.delete(targetId);
    }
    const hadFocus = this.#focus.delete(client);
    if (ended.length > 0 || hadFocus) {
      this.#changed();
    }
    return ended;
  }

  /** Drops what refers to targets that are no longer there (after a worker restart). */
  retain(alive: (targetId: string) => boolean): void {
    let changed = false;
    for (const targetId of [...this.#owner.keys()]) {
      if (!alive(targetId)) {
        this.#owner.delete(targetId);
        changed = true;
      }
    }
    for (const [client, targetId] of [...this.#focus]) {
      if (!alive(targetId) || this.#owner.get(targetId) !== client) {
        this.#focus.delete(client);
        changed = true;
      }
    }
    if (changed) {
      this.#changed();
    }
  }

  snapshot(): LeaseSnapshot {
    return { owners: [...this.#owner], focus: [...this.#focus] };
  }

  restore(snapshot: LeaseSnapshot): void {
    this.#owner.clear();
    this.#focus.clear();
    for (const [targetId, client] of snapshot.owners) {
      this.#owner.set(targetId, client);
    }
    for (const [client, targetId] of snapshot.focus) {
      this.#focus.set(client, targetId);
    }
    this.#changed();
  }

  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #dropFocus(client: string, targetId: string): void {
    if (this.#focus.get(client) !== targetId) {
      return;
    }
    const remaining = this.tabsOf(client).filter((candidate) => candidate !== targetId);
    const newest = remaining[remaining.length - 1];
    if (newest === undefined) {
      this.#focus.delete(client);
    } else {
      this.#focus.set(client, newest);
    }
  }

  #changed(): void {
    for (const listener of this.#listeners) {
      listener();
    }
  }
}
