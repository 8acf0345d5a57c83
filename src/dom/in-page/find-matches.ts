/**
 * The in-page half of `find`: every text node a person can see in this frame's document (open shadow
 * roots and same-origin iframes included; other frames are searched through their own sessions), the
 * pattern matched over them, and for each match the element an action can take: the innermost control
 * around it, else the smallest element holding all of it. That element gets an in-world id, which makes
 * it resolvable like the elements a state indexed.
 */
import type { FindMatchesOptions, FrameMatch, FrameMatches } from '../payload';
import { frameOrigin } from './geometry';
import { isFrameElement } from './realm';
import { accessibleName, isControl, resetLabelCache, roleOf } from './semantics';
import { matchPieces, patternOf } from './text-matches';
import { idOf, worldState } from './world-state';

/** Not text a person reads as the page's: code, form contents (a value, never a password's), option lists. */
const SKIP = new Set(['script', 'style', 'noscript', 'template', 'head', 'textarea', 'select', 'option', 'datalist']);
const TEXT_NODE = 3;
const ELEMENT_NODE = 1;

interface Piece {
  text: string;
  element: Element;
}

/** Hidden from people: not rendered, visibility:hidden, transparent, or under aria-hidden="true". */
function hiddenFromPeople(element: Element): boolean {
  return (
    !element.checkVisibility({ visibilityProperty: true, opacityProperty: true }) ||
    element.closest('[aria-hidden="true"]') !== null
  );
}

function sameOriginDocument(frame: HTMLIFrameElement): Document | null {
  try {
    return frame.contentDocument;
  } catch {
    // Cross-origin: the document belongs to another process; the core searches it through its session.
    return null;
  }
}

/** The text pieces under a node in reading order: shadow content, then light children; frames inline. */
function collectPieces(node: Node, out: Piece[]): void {
  const host = node as Element;
  if (node.nodeType === ELEMENT_NODE) {
    if (SKIP.has(host.localName)) {
      return;
    }
    if (isFrameElement(host)) {
      const inner = sameOriginDocument(host);
      if (inner?.body !== null && inner?.body !== undefined) {
        collectPieces(inner.body, out);
      }
      return;
    }
    if (host.shadowRoot !== null) {
      collectPieces(host.shadowRoot, out);
    }
  }
  for (const child of Array.from(node.childNodes)) {
    if (child.nodeType === TEXT_NODE) {
      const parent = child.parentElement;
      const text = child.nodeValue ?? '';
      if (parent !== null && text.trim() !== '' && !hiddenFromPeople(parent)) {
        out.push({ text, element: parent });
      }
    } else {
      collectPieces(child, out);
    }
  }
}

/** The smallest element holding both (the first when they are in different trees). */
function commonElement(first: Element, last: Element): Element {
  for (let element: Element | null = first; element !== null; element = element.parentElement) {
    if (element.contains(last)) {
      return element;
    }
  }
  return first;
}

/** The innermost control around an element (what `click` should take), else the element itself. */
function actionable(element: Element): Element {
  for (let node: Element | null = element; node !== null; node = node.parentElement) {
    const tag = node.localName;
    if (isControl(node, tag, roleOf(node, tag))) {
      return node;
    }
  }
  return element;
}

/** Whether a box lies wholly outside what a clipping ancestor (a scroll container, overflow: hidden) shows. */
function clippedOut(element: Element, rect: DOMRect): boolean {
  const root = element.ownerDocument.documentElement;
  for (let node = element.parentElement; node !== null && node !== root; node = node.parentElement) {
    const style = getComputedStyle(node);
    if (style.overflowX === 'visible' && style.overflowY === 'visible') {
      continue;
    }
    const box = node.getBoundingClientRect();
    if (rect.bottom <= box.top || rect.top >= box.bottom || rect.right <= box.left || rect.left >= box.right) {
      return true;
    }
  }
  return false;
}

/**
 * The element's box in this frame's viewport, and whether it shows there: it must overlap the viewport
 * of its own document and of each same-origin frame it is nested in, and not be scrolled out of a container.
 */
function placement(element: Element): { box: FrameMatch['box']; visible: boolean } {
  const rect = element.getBoundingClientRect();
  let { left, top } = rect;
  const { width, height } = rect;
  const overlaps = (view: Window | null): boolean =>
    view !== null && left + width > 0 && top + height > 0 && left < view.innerWidth && top < view.innerHeight;
  let visible = width > 0 && height > 0 && overlaps(element.ownerDocument.defaultView) && !clippedOut(element, rect);
  for (let doc = element.ownerDocument; doc !== document;) {
    const frame = doc.defaultView?.frameElement ?? null;
    if (frame === null || !isFrameElement(frame)) {
      break;
    }
    const [x, y] = frameOrigin(frame, frame.getBoundingClientRect());
    left += x;
    top += y;
    doc = frame.ownerDocument;
    visible = visible && overlaps(doc.defaultView);
  }
  return { box: { x: left, y: top, width, height }, visible };
}

export function findMatches(options: FindMatchesOptions): FrameMatches {
  resetLabelCache();
  const pieces: Piece[] = [];
  if (document.body !== null) {
    collectPieces(document.body, pieces);
  }
  const pattern = patternOf({ text: options.text, regex: options.regex, caseSensitive: options.caseSensitive });
  const found = matchPieces(
    pieces.map((piece) => piece.text),
    pattern,
    options.limit,
    options.contextChars,
  );
  const state = worldState();
  const matches = found.matches.map((match): FrameMatch => {
    const first = pieces[match.first]?.element ?? document.body;
    const last = pieces[match.last]?.element ?? first;
    const element = actionable(commonElement(first, last));
    const tag = element.localName;
    return {
      text: match.text,
      context: match.context,
      id: idOf(state, element),
      tag,
      role: roleOf(element, tag),
      name: accessibleName(element, tag).slice(0, 100),
      ...placement(element),
      frame: element.ownerDocument === document ? null : element.ownerDocument.URL,
    };
  });
  return {
    matches,
    total: found.total,
    url: document.URL,
    viewportWidth: window.innerWidth,
    viewportHeight: window.innerHeight,
  };
}

/** Scrolls an element `find` gave an id to into the middle of the view (its frames scroll along). */
export function revealMatch(id: number, resolve: (id: number) => Element | null): boolean {
  const element = resolve(id);
  if (element === null) {
    return false;
  }
  element.scrollIntoView({ block: 'center', inline: 'nearest', behavior: 'instant' });
  return true;
}
