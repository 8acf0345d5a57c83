/**
 * Where the pointer last was in each window tabpilot aimed in, and waiting for it to arrive at a point:
 * the look at an element after the pointer came over it runs in the page as soon as the move has been
 * dispatched there, instead of in a round trip of its own after the move was answered.
 */

interface Point {
  x: number;
  y: number;
}

interface Waiter {
  point: Point;
  done: () => void;
}

/** The last trusted pointer position of each window, in its viewport's coordinates. */
const lastSeen = new WeakMap<Window, Point>();
const tracked = new WeakSet<Window>();
const waiters = new Set<Waiter>();
/** A move that never reaches this window (it landed in a frame on top) stops being waited for. */
const ARRIVAL_MS = 1000;

function near(a: Point | undefined, b: Point): boolean {
  return a !== undefined && Math.abs(a.x - b.x) < 1 && Math.abs(a.y - b.y) < 1;
}

/** Starts noting the pointer's position in `view` (once per window; the page cannot see the listeners). */
export function trackPointer(view: Window | null): void {
  if (view === null || tracked.has(view)) {
    return;
  }
  tracked.add(view);
  const note = (event: MouseEvent): void => {
    if (!event.isTrusted) {
      return;
    }
    const point = { x: event.clientX, y: event.clientY };
    lastSeen.set(view, point);
    for (const waiter of waiters) {
      if (near(point, waiter.point)) {
        waiter.done();
      }
    }
  };
  for (const type of ['pointermove', 'mousemove', 'pointerover', 'mouseover']) {
    view.addEventListener(type, note as EventListener, { capture: true, passive: true });
  }
}

/**
 * Resolves once a trusted pointer event at `point` came to `view`, at once when the pointer is there
 * already (a move to where it is sends no events), after ARRIVAL_MS, or when releaseArrivals is called.
 */
export function arrivalAt(view: Window, point: Point): Promise<void> {
  if (near(lastSeen.get(view), point)) {
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    const waiter: Waiter = {
      point,
      done: () => {
        clearTimeout(timer);
        waiters.delete(waiter);
        resolve();
      },
    };
    const timer = setTimeout(waiter.done, ARRIVAL_MS);
    waiters.add(waiter);
  });
}

/** Ends every wait for the pointer (the core had the move answered, and no event came here for it). */
export function releaseArrivals(): boolean {
  const released = waiters.size > 0;
  for (const waiter of [...waiters]) {
    waiter.done();
  }
  return released;
}
