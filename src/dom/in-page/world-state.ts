import type { WorldRetention } from '../payload';

/**
 * What the isolated world remembers between calls: the ids it gave elements (stable while an element
 * lives, so an index can be found again by an action) and which were indexed in the latest two states
 * (for the "new" marks).
 */

export interface WorldState {
  readonly ids: WeakMap<Element, number>;
  nextId: number;
  /** Elements indexed in the state being built, and in the one before (for "new" marks). */
  current: Map<number, Element>;
  previous: Map<number, Element>;
  stateKey: string;
  /** True for the first state taken in this document: nothing counts as new then. */
  fresh: boolean;
}

export function worldState(): WorldState {
  const holder = globalThis as unknown as { __tabpilotState?: WorldState };
  holder.__tabpilotState ??= {
    ids: new WeakMap(),
    nextId: 1,
    current: new Map(),
    previous: new Map(),
    stateKey: '',
    fresh: true,
  };
  return holder.__tabpilotState;
}

/** The element's id (given on first sight), marked as indexed in the state being built. */
export function idOf(state: WorldState, element: Element): number {
  let id = state.ids.get(element);
  if (id === undefined) {
    id = state.nextId++;
    state.ids.set(element, id);
  }
  state.current.set(id, element);
  return id;
}

/** A new state key starts a new state: the current one becomes the previous. */
export function rotateState(state: WorldState, key: string): void {
  if (state.stateKey !== key) {
    state.fresh = state.stateKey === '';
    state.previous = state.current;
    state.current = new Map();
    state.stateKey = key;
  }
}

/** The in-world id of an element indexed in the latest state, if it was. */
export function indexedId(element: Element): number | undefined {
  const state = worldState();
  const id = state.ids.get(element);
  return id !== undefined && state.current.has(id) ? id : undefined;
}

/** How much the world holds: two states' elements at most, whatever the number of states taken. */
export function retention(): WorldRetention {
  const state = worldState();
  return { indexed: state.current.size, previous: state.previous.size, ids_given: state.nextId - 1 };
}

/** The element an id names in the current state, or null when it is gone. */
export function resolve(id: number): Element | null {
  const element = worldState().current.get(id) ?? worldState().previous.get(id) ?? null;
  return element !== null && element.isConnected ? element : null;
}
