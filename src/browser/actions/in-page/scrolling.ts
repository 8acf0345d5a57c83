/**
 * Scrolling a page or an element in any of the four directions, synchronously (no smooth scrolling, no
 * waiting for a frame, so it works in background tabs too) and reporting how far it really moved.
 */
import type { ScrollOutcome, ScrollRequest } from '../in-page-api';
import { isFrameElement } from '../../../dom/in-page/realm';
import { composedParent, describeElement } from './describe';

type Axis = 'x' | 'y';

function axisOf(request: ScrollRequest): { axis: Axis; sign: 1 | -1 } {
  switch (request.direction) {
    case 'up':
      return { axis: 'y', sign: -1 };
    case 'down':
      return { axis: 'y', sign: 1 };
    case 'left':
      return { axis: 'x', sign: -1 };
    case 'right':
      return { axis: 'x', sign: 1 };
  }
}

function isRoot(element: Element): boolean {
  return element === element.ownerDocument.scrollingElement;
}

function position(element: Element, axis: Axis): number {
  return axis === 'y' ? element.scrollTop : element.scrollLeft;
}

function maxScroll(element: Element, axis: Axis): number {
  return axis === 'y' ? element.scrollHeight - element.clientHeight : element.scrollWidth - element.clientWidth;
}

/** Whether the element scrolls on that axis and has room left in that direction. */
function canScroll(element: Element, axis: Axis, sign: 1 | -1): boolean {
  const max = maxScroll(element, axis);
  if (max < 1) {
    return false;
  }
  const styleOf = isRoot(element) ? element.ownerDocument.documentElement : element;
  const style = getComputedStyle(styleOf);
  const overflow = axis === 'y' ? style.overflowY : style.overflowX;
  if (isRoot(element) ? overflow === 'hidden' || overflow === 'clip' : !/(auto|scroll|overlay)/.test(overflow)) {
    return false;
  }
  const at = position(element, axis);
  return sign > 0 ? at < max - 0.5 : at > 0.5;
}

function visibleSize(element: Element, axis: Axis): number {
  const view = element.ownerDocument.defaultView;
  if (isRoot(element) && view !== null) {
    return axis === 'y' ? view.innerHeight : view.innerWidth;
  }
  return axis === 'y' ? element.clientHeight : element.clientWidth;
}

function scrollBy(container: Element, request: ScrollRequest): ScrollOutcome {
  const { axis, sign } = axisOf(request);
  const distance = sign * (request.amount ?? request.pages * visibleSize(container, axis));
  const beforeX = container.scrollLeft;
  const beforeY = container.scrollTop;
  container.scrollBy({
    left: axis === 'x' ? distance : 0,
    top: axis === 'y' ? distance : 0,
    behavior: 'instant',
  });
  return {
    kind: 'scrolled',
    container: isRoot(container) ? 'page' : describeElement(container),
    moved_x: container.scrollLeft - beforeX,
    moved_y: container.scrollTop - beforeY,
    scroll_x: container.scrollLeft,
    scroll_y: container.scrollTop,
    at_end: !canScroll(container, axis, sign),
  };
}

/** The nearest scroll container from `start` outwards (across shadow roots) with room in that direction. */
function scrollableFrom(start: Element | null, request: ScrollRequest): Element | null {
  const { axis, sign } = axisOf(request);
  for (let element = start; element !== null; element = composedParent(element)) {
    if (canScroll(element, axis, sign)) {
      return element;
    }
  }
  return null;
}

function scrollDocument(doc: Document, request: ScrollRequest): ScrollOutcome {
  const root = doc.scrollingElement ?? doc.documentElement;
  const { axis, sign } = axisOf(request);
  if (canScroll(root, axis, sign)) {
    return scrollBy(root, request);
  }
  // The document itself does not scroll (an app shell): scroll what a wheel at the centre would.
  const view = doc.defaultView;
  const centre = view === null ? null : doc.elementFromPoint(view.innerWidth / 2, view.innerHeight / 2);
  const inner = scrollableFrom(centre, request);
  return scrollBy(inner ?? root, request);
}

export function scrollPage(request: ScrollRequest): ScrollOutcome {
  return scrollDocument(document, request);
}

export function scrollElement(this: Element, request: ScrollRequest): ScrollOutcome {
  if (isFrameElement(this)) {
    let inner: Document | null;
    try {
      inner = this.contentDocument;
    } catch {
      // Cross-origin: the frame's own session scrolls it.
      inner = null;
    }
    return inner === null ? { kind: 'remote-frame' } : scrollDocument(inner, request);
  }
  const container = scrollableFrom(this, request);
  return container === null ? scrollDocument(this.ownerDocument, request) : scrollBy(container, request);
}
