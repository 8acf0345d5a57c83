/** Layout questions the collector asks of one element: reachability, scrolling, frame origins. */
import { slottedInto } from './slotted';

export interface Clip {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

/** An element's computed overflow-x and overflow-y. */
export type Overflow = readonly [x: string, y: string];

/**
 * overflow-x and overflow-y in one read of the shorthand (Chrome writes `x y`, or one value when both
 * are the same): each computed property read costs about the same, on every shown element.
 */
export function overflowOf(style: CSSStyleDeclaration): Overflow {
  const value = style.overflow;
  const space = value.indexOf(' ');
  return space < 0 ? [value, value] : [value.slice(0, space), value.slice(space + 1)];
}

const SCROLLING = /(auto|scroll|overlay)/;

/**
 * Whether a click at the element's visible points would reach it (not something painted on top). `clip` is
 * what the scroll containers around it show (this frame's viewport coordinates; null: unknown): points are
 * taken where it shows. One scrolled out of its container is asked once, at its centre: a hit test costs
 * about 0.1 ms on a big page, and five misses were most of a whole-page state's hit tests; the one look
 * still finds an element that escapes the container (a fixed or absolutely placed menu).
 */
export function reachable(element: Element, rect: DOMRect, clip: Clip | null): boolean {
  const root = element.getRootNode() as Document | ShadowRoot;
  const view = element.ownerDocument.defaultView;
  if (view === null || typeof root.elementFromPoint !== 'function') {
    return true;
  }
  const inView: Clip = {
    left: Math.max(rect.left, 0),
    right: Math.min(rect.right, view.innerWidth),
    top: Math.max(rect.top, 0),
    bottom: Math.min(rect.bottom, view.innerHeight),
  };
  if (inView.right <= inView.left || inView.bottom <= inView.top) {
    // Not in this frame's viewport: nothing to test against.
    return true;
  }
  const { left, right, top, bottom } = clipWithin(clip, inView);
  if (right <= left || bottom <= top) {
    return reaches(element, root, (inView.left + inView.right) / 2, (inView.top + inView.bottom) / 2);
  }
  const xs = [(left + right) / 2, left + (right - left) * 0.2, left + (right - left) * 0.8];
  const ys = [(top + bottom) / 2, top + (bottom - top) * 0.2, top + (bottom - top) * 0.8];
  for (const [x, y] of [
    [xs[0], ys[0]],
    [xs[1], ys[1]],
    [xs[2], ys[1]],
    [xs[1], ys[2]],
    [xs[2], ys[2]],
  ] as Array<[number, number]>) {
    if (reaches(element, root, x, y)) {
      return true;
    }
  }
  return false;
}

/** Whether a click at (x, y) lands on the element (or inside it, its label, or where its slot renders it). */
function reaches(element: Element, root: Document | ShadowRoot, x: number, y: number): boolean {
  const hit = root.elementFromPoint(x, y);
  return (
    hit !== null &&
    (hit === element ||
      element.contains(hit) ||
      hit.contains(element) ||
      labelFor(hit) === element ||
      slottedInto(element, hit, x, y))
  );
}

function labelFor(hit: Element): Element | null {
  const label = hit.closest('label');
  return label === null ? null : label.control;
}

/**
 * Pages of content beyond each edge of a scroll container (above, below, left, right). Its overflow
 * (already read) is asked first: most elements do not scroll, and their box sizes are layout reads.
 */
export function scrollInfo(
  element: Element,
  [overflowX, overflowY]: Overflow,
): [number, number, number, number] | null {
  const mayScrollY = SCROLLING.test(overflowY);
  const mayScrollX = SCROLLING.test(overflowX);
  if (!mayScrollY && !mayScrollX) {
    return null;
  }
  const el = element as HTMLElement;
  const clientHeight = el.clientHeight;
  const clientWidth = el.clientWidth;
  if (clientHeight === 0 && clientWidth === 0) {
    // Inline boxes report no client area: nothing to scroll.
    return null;
  }
  const scrollsY = mayScrollY && el.scrollHeight > clientHeight + 1;
  const scrollsX = mayScrollX && el.scrollWidth > clientWidth + 1;
  if (!scrollsY && !scrollsX) {
    return null;
  }
  const pages = (value: number, size: number): number => (size > 0 ? Math.round((value / size) * 10) / 10 : 0);
  return [
    scrollsY ? pages(el.scrollTop, el.clientHeight) : 0,
    scrollsY ? pages(el.scrollHeight - el.clientHeight - el.scrollTop, el.clientHeight) : 0,
    scrollsX ? pages(el.scrollLeft, el.clientWidth) : 0,
    scrollsX ? pages(el.scrollWidth - el.clientWidth - el.scrollLeft, el.clientWidth) : 0,
  ];
}

export function frameOrigin(frame: HTMLIFrameElement, rect: DOMRect): [number, number] {
  const style = getComputedStyle(frame);
  return [
    rect.left + frame.clientLeft + parseFloat(style.paddingLeft || '0'),
    rect.top + frame.clientTop + parseFloat(style.paddingTop || '0'),
  ];
}

/** What both clips show (null: nothing clips); it may be empty (right <= left or bottom <= top). */
export function clipWithin(outer: Clip | null, inner: Clip): Clip {
  if (outer === null) {
    return inner;
  }
  return {
    top: Math.max(outer.top, inner.top),
    bottom: Math.min(outer.bottom, inner.bottom),
    left: Math.max(outer.left, inner.left),
    right: Math.min(outer.right, inner.right),
  };
}

export function intersect(clip: Clip | null, rect: DOMRect, offsetY: number): Clip {
  return clipWithin(clip, {
    top: rect.top + offsetY,
    bottom: rect.bottom + offsetY,
    left: rect.left,
    right: rect.right,
  });
}
