/**
 * Checks that trusted pointer input reaches the element it was aimed at. A guard is armed right before
 * the input is sent, in the element's document and every same-process document embedding it: the target
 * must be the element (or something inside it, or its label). The first trusted event of the gesture
 * decides. When it missed, that event and the rest of the gesture are stopped before the page's own
 * listeners further down see them, so a press meant for a button never lands on an overlay that opened
 * on hover or on whatever moved under the point; the core then tries again at the fresh position or says
 * what happened. Later events are not judged: a page may open a popup under the pointer on the press.
 */
import type { GuardKind, GuardVerdict } from '../in-page-api';
import { describeElement } from './describe';
import { hitTest, reaches } from './hit';

const EVENTS: Record<GuardKind, readonly string[]> = {
  press: ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click', 'auxclick', 'dblclick', 'contextmenu'],
  move: ['pointerover', 'pointerenter', 'mouseover', 'mouseenter', 'pointermove', 'mousemove'],
};
/** A guard the core never read (its routine failed in between) stops guarding after this long. */
const LIFETIME_MS = 10_000;
/**
 * How long a verdict asked for together with the input waits for the gesture's releases: they come in
 * a millisecond or two, unless something of another document (a frame on top) took them.
 */
const RELEASE_WAIT_MS = 250;
const ELEMENT_NODE = 1;

interface Guard {
  verdict: GuardVerdict;
  /** Trusted button releases seen so far, in any of the guarded documents. */
  releases: number;
  /** Called on each release (a verdict waiting for the gesture's end). */
  onRelease: (() => void) | null;
  /** The gesture's last trusted click: whether the page prevented its default is read once it is through. */
  click: Event | null;
  /** What is at the aimed point now, when no event came (a frame on top took the input). */
  coverNow: () => Element | null;
  disarm: () => void;
}

/** One guard per world: arming a new one disarms the old. */
let armed: Guard | null = null;

function isElement(value: unknown): value is Element {
  return typeof value === 'object' && value !== null && (value as Node).nodeType === ELEMENT_NODE;
}

/** Hosts of the shadow roots around an element, innermost first. */
function shadowHosts(element: Element): Element[] {
  const hosts: Element[] = [];
  for (let root = element.getRootNode(); 'host' in root; root = (root as ShadowRoot).host.getRootNode()) {
    hosts.push((root as ShadowRoot).host);
  }
  return hosts;
}

/** Whether the event was aimed at `element`: its path passes through it, or its target is its label or ancestor. */
function reachedBy(element: Element, event: MouseEvent): boolean {
  const path = event.composedPath();
  if (path.includes(element)) {
    return true;
  }
  const first = path.find(isElement);
  if (first === undefined) {
    return false;
  }
  if (reaches(element, first, { x: event.clientX, y: event.clientY })) {
    return true;
  }
  // Inside a closed shadow root the path seen from outside stops at a host: hit-test in the element's root.
  if (path.some((node) => isElement(node) && shadowHosts(element).includes(node))) {
    const root = element.getRootNode() as ShadowRoot;
    return reaches(element, root.elementFromPoint(event.clientX, event.clientY), {
      x: event.clientX,
      y: event.clientY,
    });
  }
  return false;
}

/** The windows of `doc` and of every same-process document embedding it (an event there missed), innermost first. */
function windowsUp(doc: Document): Window[] {
  const out: Window[] = [];
  let view: Window | null = doc.defaultView;
  while (view !== null) {
    out.push(view);
    let owner: Element | null;
    try {
      owner = view.frameElement;
    } catch {
      // A cross-origin parent: input for this frame is sent to its own session, never through the parent.
      owner = null;
    }
    view = owner?.ownerDocument.defaultView ?? null;
  }
  return out;
}

/** Arms a guard for the next gesture aimed at `element`, at (x, y) of its frame's viewport. */
export function armGuard(kind: GuardKind, element: Element, x: number, y: number): void {
  armed?.disarm();
  const verdict: GuardVerdict = { state: 'none', hit: null, prevented: false };
  const own = element.ownerDocument.defaultView;
  const views = windowsUp(element.ownerDocument);
  const block = kind === 'press';
  const listener = (event: Event): void => {
    if (!event.isTrusted) {
      return;
    }
    if (event.type === 'mouseup') {
      guard.releases++;
      guard.onRelease?.();
    }
    if (event.type === 'click') {
      guard.click = event;
    }
    if (verdict.state === 'none') {
      const reached = event.currentTarget === own && reachedBy(element, event as MouseEvent);
      const first = event.composedPath().find(isElement);
      verdict.state = reached ? 'reached' : 'missed';
      verdict.hit = reached || first === undefined ? null : describeElement(first);
    }
    if (verdict.state === 'missed' && block) {
      event.preventDefault();
      event.stopImmediatePropagation();
    }
  };
  for (const view of views) {
    for (const type of EVENTS[kind]) {
      view.addEventListener(type, listener, { capture: true });
    }
  }
  const timer = setTimeout(() => guard.disarm(), LIFETIME_MS);
  const guard: Guard = {
    verdict,
    releases: 0,
    onRelease: null,
    click: null,
    coverNow: () => {
      const hit = hitTest(element, x, y);
      return reaches(element, hit, { x, y }) ? null : (hit ?? element.ownerDocument.documentElement);
    },
    disarm: () => {
      clearTimeout(timer);
      for (const view of views) {
        for (const type of EVENTS[kind]) {
          view.removeEventListener(type, listener, { capture: true });
        }
      }
      if (armed === guard) {
        armed = null;
      }
    },
  };
  armed = guard;
}

/** What the armed guard of this world has seen so far; it keeps guarding (a held press is still to be released). */
export function guardPeek(): GuardVerdict {
  return armed === null ? { state: 'none', hit: null, prevented: false } : { ...armed.verdict };
}

/**
 * Runs `then` in a task after the current one (the release's, where its click is dispatched and acted
 * on), ahead of the frame the page renders next: a timer or a message would wait behind that frame.
 */
function afterThisTask(then: () => void): void {
  const scheduler = (globalThis as { scheduler?: { postTask?: (task: () => void, options: object) => unknown } })
    .scheduler;
  if (typeof scheduler?.postTask === 'function') {
    // Nothing aborts it, so it cannot reject.
    void scheduler.postTask(then, { priority: 'user-blocking' });
    return;
  }
  setTimeout(then, 0);
}

/**
 * Resolves once the guard has seen `releases` button releases and the clicks they cause (dispatched in
 * the same task as the release: a task later they are through, blocked or not), or after a bound.
 */
function releasesSeen(guard: Guard, releases: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, RELEASE_WAIT_MS);
    function done(): void {
      clearTimeout(timer);
      guard.onRelease = null;
      resolve();
    }
    const check = (): void => {
      if (guard.releases >= releases) {
        guard.onRelease = null;
        afterThisTask(done);
      }
    };
    guard.onRelease = check;
    check();
  });
}

/**
 * What the armed guard of this world saw; it stops guarding. `releases`: the verdict was asked for
 * together with the input (one round trip less), so it first waits until the gesture's releases came.
 */
export async function guardVerdict(releases = 0): Promise<GuardVerdict> {
  const guard = armed;
  if (guard === null) {
    return { state: 'none', hit: null, prevented: false };
  }
  if (guard.releases < releases) {
    await releasesSeen(guard, releases);
  }
  // The click's listeners have run by now (it is dispatched in its release's task): its flag is final.
  guard.verdict.prevented = guard.click?.defaultPrevented === true;
  if (armed !== guard) {
    // Another gesture armed a guard meanwhile: this one was disarmed with what it had seen.
    return { ...guard.verdict };
  }
  guard.disarm();
  if (guard.verdict.state === 'none') {
    // No event reached this document or those around it: something of another document (an iframe
    // that opened on top) took it, unless the point still reaches the element (a page listener ahead
    // of the guard's stopped the event).
    const cover = guard.coverNow();
    if (cover !== null) {
      return { state: 'missed', hit: describeElement(cover), prevented: false };
    }
  }
  return guard.verdict;
}

/**
 * Resolves once the element's frame has rendered a frame since now (a double requestAnimationFrame: the
 * browser routes pointer input by what was last rendered, so a frame that just loaded or moved is
 * reachable at its new place only after that). A hidden page renders nothing: the core forces a frame
 * there instead. Bounded, so a throttled frame cannot hang the action.
 */
export function renderedFrame(): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), 1000);
    requestAnimationFrame(() =>
      requestAnimationFrame(() => {
        clearTimeout(timer);
        resolve(true);
      }),
    );
  });
}

/** Whether the pointer is over the element now (a move to where it already was sends no events). */
export function isHovered(this: Element): boolean {
  return this.matches(':hover');
}
