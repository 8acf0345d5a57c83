/**
 * Where a pointer can land on an element: scroll it into view, take its largest visible box, and hit-test
 * candidate points (centre first) through every same-process frame up to the local root. A point that
 * hits something else is never used: the caller learns what covers the element instead.
 */
import type { FrameHit, PointerOptions, PointerTarget, PointHit } from '../in-page-api';
import { isFrameElement, isHtmlElement, isInput, isSelect } from '../../../dom/in-page/realm';
import { resolve } from '../../../dom/in-page/world-state';
import { composedParent, describeElement, nextTask } from './describe';
import { settleAnimations } from './animations';
import { recordClick } from './click-record';
import { armGuard } from './guard';
import { hitTest, reaches } from './hit';
import { arrivalAt, trackPointer } from './pointer-arrival';

interface Rect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

const MIN_AREA = 0.5;
/** Fractions of the visible box tried in order: centre, then towards each corner. */
const CANDIDATES: ReadonlyArray<[number, number]> = [
  [0.5, 0.5],
  [0.25, 0.5],
  [0.75, 0.5],
  [0.5, 0.25],
  [0.5, 0.75],
  [0.15, 0.15],
  [0.85, 0.15],
  [0.15, 0.85],
  [0.85, 0.85],
];

function viewOf(element: Element): Window {
  const view = element.ownerDocument.defaultView;
  if (view === null) {
    throw new Error('element is not in a window');
  }
  return view;
}

function area(rect: Rect): number {
  return Math.max(0, rect.right - rect.left) * Math.max(0, rect.bottom - rect.top);
}

function intersect(a: Rect, b: Rect): Rect {
  return {
    left: Math.max(a.left, b.left),
    top: Math.max(a.top, b.top),
    right: Math.min(a.right, b.right),
    bottom: Math.min(a.bottom, b.bottom),
  };
}

/** What of `rect` survives the clipping of scroll containers and the viewport. */
function clipped(element: Element, rect: Rect): Rect {
  const view = viewOf(element);
  let visible = intersect(rect, { left: 0, top: 0, right: view.innerWidth, bottom: view.innerHeight });
  for (let parent = composedParent(element); parent !== null; parent = composedParent(parent)) {
    if (parent === element.ownerDocument.documentElement || parent === element.ownerDocument.body) {
      break;
    }
    const style = getComputedStyle(parent);
    if (style.overflowX !== 'visible' || style.overflowY !== 'visible') {
      visible = intersect(visible, parent.getBoundingClientRect());
    }
  }
  return visible;
}

/** The largest visible piece of the element's boxes (an inline element has one per line). */
function visibleBox(element: Element): Rect | 'zero-size' | 'outside-viewport' {
  const rects = Array.from(element.getClientRects());
  if (rects.every((rect) => area(rect) < MIN_AREA)) {
    return 'zero-size';
  }
  let best: Rect | undefined;
  for (const rect of rects) {
    const piece = clipped(element, rect);
    if (area(piece) >= MIN_AREA && (best === undefined || area(piece) > area(best))) {
      best = piece;
    }
  }
  return best ?? 'outside-viewport';
}

function fullyVisible(element: Element): boolean {
  const rect = element.getBoundingClientRect();
  return area(rect) >= MIN_AREA && Math.abs(area(clipped(element, rect)) - area(rect)) < 1;
}

/** Same-process frames between the element's document and the local root, innermost first. */
function frameChain(element: Element): Element[] {
  const chain: Element[] = [];
  let view: Window | null = element.ownerDocument.defaultView;
  while (view !== null) {
    let owner: Element | null;
    try {
      owner = view.frameElement;
    } catch {
      // A cross-origin parent: this frame is the local root (an OOPIF) or an in-process frame we cannot see past.
      owner = null;
    }
    if (owner === null) {
      break;
    }
    chain.push(owner);
    view = owner.ownerDocument.defaultView;
  }
  return chain;
}

function contentOrigin(frame: Element): [number, number] {
  const rect = frame.getBoundingClientRect();
  const style = getComputedStyle(frame);
  return [
    rect.left + frame.clientLeft + parseFloat(style.paddingLeft || '0'),
    rect.top + frame.clientTop + parseFloat(style.paddingTop || '0'),
  ];
}

/** A point checked through the frame chain: where it lands in the local root, or what covers it. */
type PointOutcome = { kind: 'clear'; x: number; y: number } | { kind: 'covered'; cover: Element };

/** Checks one point through the frame chain (tagged, not instanceof: frames have their own classes). */
function tryPoint(element: Element, chain: Element[], x: number, y: number): PointOutcome {
  const hit = hitTest(element, x, y);
  if (!reaches(element, hit, { x, y })) {
    return { kind: 'covered', cover: hit ?? element.ownerDocument.documentElement };
  }
  let px = x;
  let py = y;
  for (const frame of chain) {
    const [ox, oy] = contentOrigin(frame);
    px += ox;
    py += oy;
    const frameHit = hitTest(frame, px, py);
    if (frameHit !== frame) {
      return { kind: 'covered', cover: frameHit ?? frame.ownerDocument.documentElement };
    }
  }
  return { kind: 'clear', x: px, y: py };
}

function checkedState(element: Element): boolean | null {
  if (isInput(element) && (element.type === 'checkbox' || element.type === 'radio')) {
    return element.checked;
  }
  const role = element.getAttribute('role');
  if (role === 'checkbox' || role === 'radio' || role === 'switch' || role === 'menuitemcheckbox') {
    return element.getAttribute('aria-checked') === 'true';
  }
  return null;
}

/**
 * Where to aim at the element, found once a transition moving it (a menu growing open) has ended, so the
 * point is where the element will stay. One call: the point, the cover, or why there is none.
 */
export async function pointerTarget(this: Element, options: PointerOptions): Promise<PointerTarget> {
  await settleAnimations.call(this);
  return targetOf(this, options);
}

/**
 * pointerTarget once the pointer, moved to (x, y) of the session's viewport (where pointerTarget aimed),
 * has arrived over the element and the page had a task to react to the hover: a menu opened, an element
 * moved away. Sent together with the move instead of after its answer.
 */
export async function pointerTargetAfterMove(
  this: Element,
  options: PointerOptions,
  x: number,
  y: number,
): Promise<PointerTarget> {
  const view = this.ownerDocument.defaultView;
  if (view !== null) {
    let local = { x, y };
    for (const frame of frameChain(this)) {
      const [ox, oy] = contentOrigin(frame);
      local = { x: local.x - ox, y: local.y - oy };
    }
    await arrivalAt(view, local);
    await nextTask();
  }
  return pointerTarget.call(this, options);
}

/**
 * pointerTarget for the element an index of the latest state names (by its id in this world), or null
 * when it is gone: the first look at a clicked element goes out together with the request for its handle.
 */
export function pointerTargetOf(this: unknown, id: number, options: PointerOptions): Promise<PointerTarget | null> {
  const element = resolve(id);
  return element === null ? Promise.resolve(null) : pointerTarget.call(element, options);
}

function targetOf(element: Element, options: PointerOptions): PointerTarget {
  trackPointer(element.ownerDocument.defaultView);
  const base = {
    element: describeElement(element),
    checked: checkedState(element),
    // A frame shares its page's visibility: hidden, the page renders no frame by itself for input to wait for.
    hidden: element.ownerDocument.visibilityState === 'hidden',
  };
  if (options.refuse) {
    if (isInput(element) && element.type === 'file') {
      return { ...base, kind: 'refused', reason: 'file-input' };
    }
    if (isSelect(element)) {
      return { ...base, kind: 'refused', reason: 'select' };
    }
  }
  if (options.scroll && !fullyVisible(element)) {
    element.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
  }
  const box = visibleBox(element);
  if (typeof box === 'string') {
    return { ...base, kind: 'no-box', reason: box };
  }
  const chain = frameChain(element);
  let firstCover: Element | undefined;
  let firstPoint: [number, number] | undefined;
  for (const [fx, fy] of CANDIDATES) {
    const x = box.left + (box.right - box.left) * fx;
    const y = box.top + (box.bottom - box.top) * fy;
    const outcome = tryPoint(element, chain, x, y);
    if (outcome.kind === 'clear') {
      if (options.guard !== null) {
        armGuard(options.guard, element, x, y);
      }
      return { ...base, kind: 'point', x: outcome.x, y: outcome.y };
    }
    firstCover ??= outcome.cover;
    firstPoint ??= [x, y];
  }
  const [x, y] = firstPoint ?? [0, 0];
  return {
    ...base,
    kind: 'occluded',
    cover: firstCover === undefined ? 'another element' : describeElement(firstCover),
    x,
    y,
  };
}

/**
 * The mouse cannot reach a zero-size element: dispatch the click on it directly. Answers whether the
 * page prevented the click's default, read once its listeners ran (the dispatch is synchronous): a
 * download link whose default was prevented starts nothing itself.
 */
export function scriptClick(this: Element): { prevented: boolean } {
  const record = recordClick(this);
  try {
    if (isHtmlElement(this)) {
      this.click();
    } else {
      this.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, composed: true }));
    }
  } finally {
    record.stop();
  }
  return { prevented: record.click()?.defaultPrevented === true };
}

export function readChecked(this: Element): boolean | null {
  return checkedState(this);
}

/** What a coordinate click would hit in this (top) frame. */
export function hitAt(x: number, y: number): PointHit {
  const view = window;
  const inViewport = x >= 0 && y >= 0 && x < view.innerWidth && y < view.innerHeight;
  let hit = inViewport ? document.elementFromPoint(x, y) : null;
  while (hit?.shadowRoot) {
    const inner = hit.shadowRoot.elementFromPoint(x, y);
    if (inner === null || inner === hit) {
      break;
    }
    hit = inner;
  }
  if (hit === null) {
    return { in_viewport: inViewport, element: null, refused: null, frame: false };
  }
  const refused =
    isInput(hit) && hit.type === 'file'
      ? 'file-input'
      : isSelect(hit) || hit.closest('select') !== null
        ? 'select'
        : null;
  return {
    in_viewport: inViewport,
    element: describeElement(hit),
    refused,
    frame: isFrameElement(hit),
  };
}

/**
 * For an iframe element (`this`) whose document is in another process: moves a point of that document's
 * viewport into this frame's local root, checking that the iframe itself is what is hit there.
 */
export function frameHit(this: Element, x: number, y: number): FrameHit {
  const [ox, oy] = contentOrigin(this);
  const outcome = tryPoint(this, frameChain(this), x + ox, y + oy);
  if (outcome.kind === 'covered') {
    return { cover: describeElement(outcome.cover), x, y };
  }
  return { cover: null, x: outcome.x, y: outcome.y };
}
