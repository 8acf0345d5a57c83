/**
 * The in-page perception pass. Runs in tabpilot's isolated world (the page's scripts cannot see or
 * change it) and walks the document once: light DOM, open shadow roots and same-origin iframes, with the
 * layout reads a visibility filter needs and an accessible-name computation that never touches
 * `element.labels` (9.7 s cold on a big page). It returns the page as lines, already reduced,
 * and keeps a registry of the elements it indexed so actions can find them again by id.
 *
 * Built with the actions' in-page half into one script by scripts/build-inpage.mjs (src/dom/generated/page-source.ts).
 */
import type { CollectOptions, CollectResult, CollectStats } from '../payload';
import type { ElementExtra, PackedElement, PackedLine } from '../wire';
import { accessibleName, isControl, isDisabled, resetLabelCache, roleOf } from './semantics';
import { attributesFor } from './attributes';
import { clippedAway, containedBy, mayHaveClosedRoot, withoutRedundantId } from './element-rules';
import { frameOrigin, intersect, overflowOf, reachable, scrollInfo, type Clip } from './geometry';
import { canvasScope, elementScope, hiddenAt, shownText, type PaintScope } from './hidden-text';
import { pendingRequests } from './pending-requests';
import { isDocument, isShadowRoot } from './realm';
import { idOf, indexedId, resolve, rotateState, worldState, type WorldState } from './world-state';

const SKIP = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'head',
  'meta',
  'link',
  'title',
  'base',
  // tabpilot's own in-page indicator of a controlled tab: not the page's.
  'tabpilot-control-indicator',
]);
/** Grouping roles printed (without an index) when they carry a name: they tell which group a control is in. */
const NAMED_CONTAINERS = new Set([
  'group',
  'radiogroup',
  'toolbar',
  'tablist',
  'menu',
  'menubar',
  'listbox',
  'tree',
  'grid',
  'dialog',
  'alertdialog',
  'navigation',
  'region',
  'form',
  'search',
  'table',
]);
/** Elements whose own children are not content (an option list, a textarea's initial text). */
const OPAQUE = new Set(['select', 'textarea', 'datalist']);
/** Clickable containers whose contents are part of the one click (browser-use's "propagating" parents). */
const PROPAGATING_ROLES = new Set(['button', 'link', 'combobox']);
const TEXT_NODE = 3;
const ELEMENT_NODE = 1;

interface Walk {
  readonly options: CollectOptions;
  /**
   * What the scroll containers around this point show: in viewport mode, content scrolled out of one is out
   * of view; in both modes, a control's hit test looks where it shows.
   */
  clip: Clip | null;
  readonly lines: PackedLine[];
  readonly state: WorldState;
  readonly viewportWidth: number;
  readonly viewportHeight: number;
  readonly stats: CollectStats;
  /** The open modal `<dialog>`: everything outside it is inert while it is open. */
  readonly modal: Element | null;
  /** Inside an inert subtree (the `inert` attribute, or outside the modal): no clicks or focus land. */
  inert: boolean;
  /** Where the current element's text is painted (what clips it, the colour behind, whether it is hidden). */
  paint: PaintScope;
  /** Inside a control (or a label): screen-reader text here names it, and is kept. */
  inControl: boolean;
  /** The innermost indexed or greyed control around this point (its whole text may be one character). */
  control: Element | null;
  /** Characters of the budget the lines printed so far leave at least (Infinity: no budget). */
  budgetLeft: number;
}

/**
 * Adds a printed line and counts it against the budget by the fewest characters the serializer can print
 * for it (a text as it is; an element as its bare `<tag />`), so a cut walk always holds every line the
 * serializer keeps: the budget runs out in the printed text no later than it does here.
 */
function print(walk: Walk, line: PackedLine, leastChars: number): void {
  walk.lines.push(line);
  walk.budgetLeft -= leastChars;
}

/** The lines fill the budget: nothing more is walked. */
function cut(walk: Walk): boolean {
  return walk.budgetLeft < 0;
}

function inRange(walk: Walk, rect: DOMRect, offsetY: number): boolean {
  const expansion = walk.options.viewportExpansion;
  if (expansion < 0) {
    return true;
  }
  const top = rect.top + offsetY;
  const bottom = rect.bottom + offsetY;
  if (
    bottom < -expansion ||
    top > walk.viewportHeight + expansion ||
    rect.right < -50 ||
    rect.left > walk.viewportWidth + 50
  ) {
    return false;
  }
  const clip = walk.clip;
  return (
    clip === null || (bottom >= clip.top && top <= clip.bottom && rect.right >= clip.left && rect.left <= clip.right)
  );
}

/**
 * A child of content the browser skips (`content-visibility: hidden`) though it keeps a box: a closed
 * `<details>`'s, or `hidden=until-found`'s (a plain `hidden` has no box, and is asked anyway).
 */
function inSkippedContent(element: Element): boolean {
  const parent = element.parentElement;
  return (
    parent !== null &&
    (parent.hasAttribute('hidden') || (parent.localName === 'details' && !(parent as HTMLDetailsElement).open))
  );
}

function isWholeText(control: Element | null, text: string): boolean {
  return control !== null && (control.textContent ?? '').trim() === text;
}

/** Whitespace the collapse would change: a run of two, or any but a plain space (a newline, a tab, nbsp). */
const UNCOLLAPSED = /[^\S ]| {2}/;

function textOf(node: Text, max: number): string {
  // Trim first: most text nodes are the whitespace between tags, and most others need no collapsing.
  const trimmed = (node.nodeValue ?? '').trim();
  const value = UNCOLLAPSED.test(trimmed) ? trimmed.replace(/\s+/g, ' ') : trimmed;
  return value.length > max ? `${value.slice(0, max)}…` : value;
}

function walkChildren(
  walk: Walk,
  parent: ParentNode,
  depth: number,
  visible: boolean,
  offset: [number, number],
  inClickable: DOMRect | null,
): void {
  for (let child = (parent as Node).firstChild; child !== null && !cut(walk); child = child.nextSibling) {
    visitNode(walk, child, depth, visible, offset, inClickable);
  }
}

function visitNode(
  walk: Walk,
  node: Node,
  depth: number,
  visible: boolean,
  offset: [number, number],
  inClickable: DOMRect | null,
): void {
  if (node.nodeType === TEXT_NODE) {
    if (visible) {
      const text = textOf(node as Text, walk.options.maxTextLength);
      // A lone character is noise (a separator, a bullet, an icon glyph beside a label) unless it is
      // all the text of its control (a keypad's 7, a close button's ×).
      const keep = text.length > 1 || (text.length === 1 && isWholeText(walk.control, text));
      const shown = keep ? shownText(text, hiddenAt(walk.paint), walk.inControl, walk.options.hiddenText) : null;
      if (shown !== null) {
        print(walk, [0, depth, shown], shown.length);
      }
    }
  } else if (node.nodeType === ELEMENT_NODE) {
    const element = node as Element;
    const outerInert = walk.inert;
    walk.inert = element === walk.modal ? false : outerInert || element.hasAttribute('inert');
    visitElement(walk, element, depth, visible, offset, inClickable);
    walk.inert = outerInert;
  }
}

/**
 * An element with `display: contents` has no box (checkVisibility says false) but its children are laid
 * out as its parent's: they are walked in its place. A `<slot>` (display: contents by default) stands
 * for the light-DOM nodes assigned to it, or its fallback content, which is where they render.
 */
function visitContents(
  walk: Walk,
  element: Element,
  depth: number,
  visible: boolean,
  offset: [number, number],
  inClickable: DOMRect | null,
): void {
  if (element.localName === 'slot') {
    for (const node of (element as HTMLSlotElement).assignedNodes({ flatten: true })) {
      if (cut(walk)) {
        break;
      }
      visitNode(walk, node, depth, visible, offset, inClickable);
    }
    return;
  }
  walkChildren(walk, element, depth, visible, offset, inClickable);
}

function visitElement(
  walk: Walk,
  element: Element,
  depth: number,
  parentVisible: boolean,
  offset: [number, number],
  inClickable: DOMRect | null,
): void {
  const { paint, inControl, control } = walk;
  visitElementIn(walk, element, depth, parentVisible, offset, inClickable);
  walk.paint = paint;
  walk.inControl = inControl;
  walk.control = control;
}

function visitElementIn(
  walk: Walk,
  element: Element,
  depth: number,
  parentVisible: boolean,
  offset: [number, number],
  inClickable: DOMRect | null,
): void {
  const tag = element.localName;
  if (SKIP.has(tag)) {
    return;
  }
  walk.stats.elements++;
  const isFileInput = tag === 'input' && (element as HTMLInputElement).type === 'file';
  const rect = element.getBoundingClientRect();
  const near = inRange(walk, rect, offset[1]);
  // Out of view (a viewport state), nothing of the element itself is printed and its children are walked
  // only for what lies in view, so whether it is painted changes nothing: most of a big page is not asked.
  // What hides a whole subtree still prunes it there, so the page's counts stay those of what is rendered:
  // no box (display: none; display: contents is unwrapped), or the browser's skipped content. A page's
  // own `content-visibility: hidden` far out of view is not told from shown content: its text is still
  // not printed, but its elements are counted.
  const asked = near || (rect.width === 0 && rect.height === 0) || inSkippedContent(element);
  // One check for the common case (the element is painted); only a hidden one is asked again whether
  // its whole subtree is gone or only the element itself (visibility, opacity) is invisible.
  const painted = asked && element.checkVisibility({ visibilityProperty: true, opacityProperty: true });
  if (asked && !painted && !element.checkVisibility() && !isFileInput) {
    if (getComputedStyle(element).display === 'contents') {
      visitContents(walk, element, depth, parentVisible, offset, inClickable);
    }
    // Otherwise display:none (or content-visibility) hides the whole subtree.
    return;
  }
  if (tag === 'svg') {
    // SVG internals are drawing, not content: the element alone stands for them.
    walk.stats.images++;
  }
  const shown = (rect.width > 0 || rect.height > 0) && painted;
  // One computed style for every read of a shown element (each getComputedStyle call is a new object).
  const style = shown && near ? getComputedStyle(element) : null;
  const role = roleOf(element, tag);
  if (tag === 'a') {
    walk.stats.links++;
  } else if (tag === 'img') {
    walk.stats.images++;
  }

  let line: PackedElement | null = null;
  const named =
    near &&
    shown &&
    role !== null &&
    NAMED_CONTAINERS.has(role) &&
    (element.hasAttribute('aria-label') ||
      element.hasAttribute('aria-labelledby') ||
      tag === 'dialog' ||
      role === 'dialog');
  const control =
    near &&
    !walk.inert &&
    (shown || isFileInput) &&
    isControl(element, tag, role, style) &&
    !containedBy(inClickable, rect, element, tag) &&
    (isFileInput || !clippedAway(element, rect));
  const disabled = control && isDisabled(element);
  const interactive = control && !disabled;
  const overflow = style === null ? null : overflowOf(style);
  const scroll = overflow === null ? null : scrollInfo(element, overflow);
  const isFrame = tag === 'iframe' || tag === 'frame';
  const openRoot = element.shadowRoot;
  // A control something else is painted over cannot be acted on: it prints no tag, only its text (as
  // browser-use's paint-order filter does), so the model is not shown an element it cannot use. A
  // disabled one prints its tag, marked disabled and without an index: the model learns the form's
  // Submit exists but waits for something (and does not go looking for it).
  // The scroll containers' clip is in the top document's coordinates: it serves the hit test in its frame only.
  const clip = offset[0] === 0 && offset[1] === 0 ? walk.clip : null;
  const reached = control && (isFileInput || reachable(element, rect, clip));
  const indexed = reached && !disabled;
  const greyed = reached && disabled;
  if (reached || named || scroll !== null || (isFrame && shown && near)) {
    const id = indexed ? idOf(walk.state, element) : undefined;
    const name = reached || named ? accessibleName(element, tag) : '';
    const attributes = withoutRedundantId(attributesFor(element, tag, role), tag, name);
    const isNew = id !== undefined && walk.options.markNew && !walk.state.fresh && !walk.state.previous.has(id);
    line = [
      1,
      depth,
      tag,
      id ?? -1,
      isNew ? 1 : 0,
      role,
      name,
      (greyed ? [...attributes, ['disabled', 'true']] : attributes).flat(),
      rect.left + offset[0],
      rect.top + offset[1],
      rect.width,
      rect.height,
    ];
    const shadow = openRoot !== null && openRoot.mode === 'open' ? 'open' : null;
    if (scroll !== null || shadow !== null) {
      line.push({ scroll, shadow, frame: null, frameOrigin: null });
    }
    print(walk, line, tag.length + '< />'.length);
  }
  const childDepth = line === null ? depth : depth + 1;
  const clickable = interactive && PROPAGATING_ROLES.has(role ?? '') ? rect : inClickable;
  if (reached || tag === 'label') {
    walk.inControl = true;
  }
  if (reached) {
    walk.control = element;
  }
  if (style !== null && overflow !== null) {
    walk.paint = elementScope(walk.paint, element, rect, style, overflow);
  }

  if (isFrame) {
    walk.stats.iframes++;
    if (line !== null) {
      visitFrame(walk, element as HTMLIFrameElement, line, rect, childDepth, offset);
    }
    return;
  }
  const outerClip = walk.clip;
  if (scroll !== null) {
    // What a scroll container shows: in view for the viewport's state, and where a hit test can find its controls.
    walk.clip = intersect(outerClip, rect, offset[1]);
  }
  if (openRoot !== null) {
    // Shadow content reads as the host's content: the model acts by index, so the boundary is not printed.
    // The host's own children render only where the root's slots place them, so they are walked there.
    walk.stats.shadowRoots++;
    walkChildren(walk, openRoot, childDepth, shown && near, offset, clickable);
  } else {
    if (near && mayHaveClosedRoot(element, tag, rect)) {
      walk.lines.push([2, childDepth, idOf(walk.state, element)]);
    }
    if (!OPAQUE.has(tag)) {
      // Text shows when its element is shown and in view (text nodes have no box of their own to test).
      walkChildren(walk, element, childDepth, shown && near, offset, clickable);
    }
  }
  walk.clip = outerClip;
}

/** Sets an element line's frame facts (keeping its scroll and shadow ones). */
function setFrame(line: PackedElement, frame: ElementExtra['frame'], frameOrigin: ElementExtra['frameOrigin']): void {
  const extra = line[12] ?? { scroll: null, shadow: null, frame: null, frameOrigin: null };
  line[12] = { ...extra, frame, frameOrigin };
}

function visitFrame(
  walk: Walk,
  frame: HTMLIFrameElement,
  line: PackedElement,
  rect: DOMRect,
  depth: number,
  offset: [number, number],
): void {
  let inner: Document | null = null;
  try {
    inner = frame.contentDocument;
  } catch {
    // Cross-origin: the document belongs to another process; the core stitches it in.
    inner = null;
  }
  const origin = frameOrigin(frame, rect);
  if (inner === null || inner.documentElement === null) {
    setFrame(line, 'remote', [origin[0] + offset[0], origin[1] + offset[1]]);
    if (line[3] === -1) {
      line[3] = idOf(walk.state, frame);
    }
    return;
  }
  setFrame(line, 'inline', null);
  // The frame's document has its own coordinates and canvas; what hides the frame hides its text too.
  walk.paint = canvasScope(walk.paint, inner);
  walkChildren(walk, inner.documentElement, depth, true, [origin[0] + offset[0], origin[1] + offset[1]], null);
}

/** Collects one document (or shadow root) as lines. `stateKey` groups sub-collections of one state. */
export function collect(
  root: Document | ShadowRoot | Element,
  options: CollectOptions,
  stateKey: string,
): CollectResult {
  const started = performance.now();
  const state = worldState();
  rotateState(state, stateKey);
  const doc = isDocument(root) ? root : (root.ownerDocument ?? document);
  const view = doc.defaultView ?? window;
  const scroller = doc.scrollingElement ?? doc.documentElement;
  resetLabelCache();
  const modal = isDocument(root) ? root.querySelector('dialog:modal') : null;
  const walk: Walk = {
    options,
    clip: null,
    lines: [],
    state,
    viewportWidth: view.innerWidth,
    viewportHeight: view.innerHeight,
    stats: { elements: 0, interactive: 0, iframes: 0, shadowRoots: 0, images: 0, links: 0 },
    modal,
    inert: modal !== null,
    paint: canvasScope(null, doc),
    inControl: false,
    control: null,
    budgetLeft: options.maxChars > 0 ? options.maxChars : Infinity,
  };
  if (isShadowRoot(root)) {
    walk.stats.shadowRoots++;
    walkChildren(walk, root, options.baseDepth, true, [0, 0], null);
  } else {
    const start = isDocument(root) ? root.documentElement : root;
    if (start !== null) {
      walkChildren(walk, start, options.baseDepth, true, [0, 0], null);
    }
  }
  walk.stats.interactive = walk.lines.filter(
    (line) => line[0] === 1 && line[3] !== -1 && (line[12]?.frame ?? null) === null,
  ).length;
  return {
    lines: walk.lines,
    metrics: {
      url: doc.location?.href ?? '',
      title: doc.title,
      pending: isDocument(root) ? pendingRequests(view) : [],
      viewportWidth: view.innerWidth,
      viewportHeight: view.innerHeight,
      pageWidth: scroller?.scrollWidth ?? view.innerWidth,
      pageHeight: scroller?.scrollHeight ?? view.innerHeight,
      scrollX: view.scrollX,
      scrollY: view.scrollY,
    },
    stats: walk.stats,
    elapsedMs: performance.now() - started,
    cut: cut(walk),
  };
}

export { indexedId, resolve };
