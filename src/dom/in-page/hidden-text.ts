/**
 * Text a person cannot see: set in a zero font size, moved where no scrolling reaches (far off to the
 * left or above the page, or indented out of its box), clipped to nothing (clip, clip-path, a zero-size
 * box with overflow hidden), or painted in the colour of what lies behind it. Pages use it to hide
 * instructions for a model; the collector leaves it out of the state (or marks it). What scrolling
 * reveals is not hidden (content below the fold, inside a scroll container), and screen-reader text
 * (the sr-only clip or off-screen patterns) is kept where it names a control.
 */
import { clipWithin, type Clip, type Overflow } from './geometry';

export type HiddenReason = 'zero font size' | 'off-screen' | 'clipped' | 'transparent' | 'same colour as background';

/** A computed colour, parsed once per distinct value a page uses. */
interface Colour {
  readonly rgb: readonly [number, number, number];
  readonly alpha: number;
  readonly luminance: number;
}

/** What an element's descendants are painted within: the clip of overflowing ancestors, the colour behind. */
export interface Paint {
  /** In this frame's viewport coordinates; null: nothing clips. */
  readonly clip: Clip | null;
  /** The opaque colour behind; null when it cannot be told (an image, a translucent layer). */
  readonly background: Colour | null;
}

/** The paint of text below an element, and why a person cannot see it there (null: they can). */
interface Painted {
  readonly hidden: HiddenReason | null;
  readonly paint: Paint;
}

/**
 * A place on the walk's path, whose paint is worked out only when text below it is printed: reading an
 * element's computed style is most of a state's time, and many elements (images, inputs, icons, empty
 * boxes) have no text below them. Worked out, it is the same answer, as the page does not change during
 * the walk. A canvas scope starts a frame's document (its paint starts anew; what hides the frame
 * hides its text too); an element scope stands for a shown element, with what the walk already read.
 */
export type PaintScope = CanvasScope | ElementScope;

/** Where the page's scrolling can reach, read once per document (the walk does not scroll it). */
interface DocumentFacts {
  readonly scrollX: number;
  readonly scrollY: number;
  readonly rtl: boolean;
}

interface CanvasScope {
  readonly kind: 'canvas';
  readonly parent: PaintScope | null;
  /** Null when the document has no window. */
  readonly facts: DocumentFacts | null;
  painted: Painted | null;
}

interface ElementScope {
  readonly kind: 'element';
  readonly parent: PaintScope;
  /** The scope of the element's document. */
  readonly canvas: CanvasScope;
  readonly element: Element;
  readonly rect: DOMRect;
  readonly style: CSSStyleDeclaration;
  readonly overflow: Overflow;
  painted: Painted | null;
  /** Why this element's own text is hidden (ownTextHidden); undefined until its first text is printed. */
  ownText: HiddenReason | null | undefined;
}

function luminance([r, g, b]: readonly [number, number, number]): number {
  const channel = (value: number): number => {
    const s = value / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

function colour(rgb: readonly [number, number, number], alpha: number): Colour {
  return { rgb, alpha, luminance: luminance(rgb) };
}

/** A page's canvas is white unless something paints over it. */
export const CANVAS: Paint = { clip: null, background: colour([255, 255, 255], 1) };

/** Reasons the screen-reader patterns give (sr-only): kept inside a control, whose name they are. */
const SCREEN_READER_REASONS: ReadonlySet<HiddenReason> = new Set(['clipped', 'off-screen']);

/** How a text line reads in the state: as it is, marked hidden, or not at all (null). */
export function shownText(
  text: string,
  hidden: HiddenReason | null,
  inControl: boolean,
  mode: 'omit' | 'mark',
): string | null {
  if (hidden === null || (inControl && SCREEN_READER_REASONS.has(hidden))) {
    return text;
  }
  return mode === 'mark' ? `[hidden: ${hidden}] ${text}` : null;
}

function parseColour(value: string): Colour | null {
  const match = /^rgba?\(([^)]+)\)$/.exec(value);
  if (match === null) {
    return null;
  }
  const parts = (match[1] ?? '')
    .split(/[\s,/]+/)
    .filter((part) => part !== '')
    .map(Number);
  return colour([parts[0] ?? 0, parts[1] ?? 0, parts[2] ?? 0], parts[3] ?? 1);
}

/** Parsed colours by their computed value: a page uses a few dozen, on tens of thousands of elements. */
const colours = new Map<string, Colour | null>();
/** Enough for any page's palette; a page that makes up colours as it goes does not grow the map for ever. */
const MAX_COLOURS = 1024;

function rgba(value: string): Colour | null {
  let parsed = colours.get(value);
  if (parsed === undefined) {
    parsed = parseColour(value);
    if (colours.size >= MAX_COLOURS) {
      colours.clear();
    }
    colours.set(value, parsed);
  }
  return parsed;
}

/** WCAG contrast ratio; below this a person cannot tell the text from its background. */
const MIN_CONTRAST = 1.1;

function contrast(a: Colour, b: Colour): number {
  const light = Math.max(a.luminance, b.luminance);
  const dark = Math.min(a.luminance, b.luminance);
  return (light + 0.05) / (dark + 0.05);
}

/** Less than about a pixel either way: the sr-only box, or a box clipped away. */
function empty(clip: Clip): boolean {
  return clip.right - clip.left < 1.5 || clip.bottom - clip.top < 1.5;
}

const ZERO_CLIP_PATH = /^inset\(\s*(50|100)%|^circle\(\s*0(px)?\s*[ a]|^polygon\(\s*0(px)?\s+0(px)?\s*\)$/;

/**
 * What an element's box does to the text below it, given what its ancestors paint: clipped away (clip,
 * clip-path, an overflow box of no size), placed where no scrolling reaches, and the colour it paints
 * behind. These are not inherited, so every element on the path from the document counts.
 */
function boxPaintOf(
  element: Element,
  rect: DOMRect,
  outer: Paint,
  style: CSSStyleDeclaration,
  [overflowX, overflowY]: Overflow,
  facts: DocumentFacts | null,
): Painted {
  let clip = outer.clip;
  let reason: HiddenReason | null = null;
  if (
    clip !== null &&
    (rect.right <= clip.left || rect.left >= clip.right || rect.bottom <= clip.top || rect.top >= clip.bottom)
  ) {
    reason = 'clipped';
  }
  // `clip` applies only to positioned boxes: most are static, and one read is cheaper than two.
  const cssClip = style.position === 'static' ? 'auto' : style.clip;
  if (cssClip !== 'auto' && cssClip !== '') {
    const edges = /rect\(([^)]*)\)/
      .exec(cssClip)?.[1]
      ?.split(/[\s,]+/)
      .map((part) => parseFloat(part));
    if (edges !== undefined && edges.length === 4) {
      const [top = 0, right = 0, bottom = 0, left = 0] = edges;
      if (right - left < 1.5 || bottom - top < 1.5) {
        reason ??= 'clipped';
      }
    }
  }
  const clipPath = style.clipPath;
  if (clipPath !== 'none' && ZERO_CLIP_PATH.test(clipPath)) {
    reason ??= 'clipped';
  }
  if (overflowX !== 'visible' || overflowY !== 'visible') {
    const scrolls = (value: string): boolean => value === 'auto' || value === 'scroll';
    const box = element as HTMLElement;
    // A scroll container clips only what scrolling cannot bring into its box.
    const own: Clip = {
      left: scrolls(overflowX) ? rect.left - box.scrollLeft : overflowX === 'visible' ? -Infinity : rect.left,
      right: scrolls(overflowX)
        ? rect.left - box.scrollLeft + Math.max(box.scrollWidth, rect.width)
        : overflowX === 'visible'
          ? Infinity
          : rect.right,
      top: scrolls(overflowY) ? rect.top - box.scrollTop : overflowY === 'visible' ? -Infinity : rect.top,
      bottom: scrolls(overflowY)
        ? rect.top - box.scrollTop + Math.max(box.scrollHeight, rect.height)
        : overflowY === 'visible'
          ? Infinity
          : rect.bottom,
    };
    clip = clipWithin(clip, own);
    if (empty(clip)) {
      reason ??= 'clipped';
    }
  }
  // Scrolling never goes left of the page's start (right of it, in a right-to-left page) or above its top.
  if (facts !== null && (rect.bottom + facts.scrollY <= 0 || (!facts.rtl && rect.right + facts.scrollX <= 0))) {
    reason ??= 'off-screen';
  }
  let background = outer.background;
  if (style.backgroundImage !== 'none') {
    background = null;
  } else {
    const own = rgba(style.backgroundColor);
    if (own !== null && own.alpha >= 1) {
      background = own;
    } else if (own !== null && own.alpha > 0) {
      background = null;
    }
  }
  // Most elements neither clip nor paint a background: their descendants share the paint object.
  const paint = clip === outer.clip && background === outer.background ? outer : { clip, background };
  return { hidden: reason, paint };
}

/**
 * What the element's own text looks like where its box leaves it shown: a zero font size, an indent that
 * moves it out of its box, no colour, or the colour of what lies behind. These properties are inherited,
 * so the computed value of the element that holds the text is the whole answer: an ancestor's `font-size:
 * 0` (the usual way to close the gaps between inline blocks) hides nothing a child sizes again. Read only
 * for elements whose text is printed, not for every element above it.
 */
function ownTextHidden(scope: ElementScope, background: Colour | null): HiddenReason | null {
  const { style, rect } = scope;
  if (parseFloat(style.fontSize) < 1) {
    return 'zero font size';
  }
  if (scope.canvas.facts !== null && parseFloat(style.textIndent) <= -Math.max(rect.width, 100)) {
    return 'off-screen';
  }
  const color = rgba(style.color);
  if (color === null) {
    return null;
  }
  if (color.alpha === 0) {
    return 'transparent';
  }
  return color.alpha >= 1 && background !== null && contrast(color, background) < MIN_CONTRAST
    ? 'same colour as background'
    : null;
}

/** The scope of a frame's document (or the walk's start), under the scope of its frame element (if any). */
export function canvasScope(parent: PaintScope | null, document: Document): PaintScope {
  const view = document.defaultView;
  const facts =
    view === null
      ? null
      : { scrollX: view.scrollX, scrollY: view.scrollY, rtl: document.documentElement?.dir === 'rtl' };
  return { kind: 'canvas', parent, facts, painted: null };
}

/** The scope of a shown element, under the walk's current one. */
export function elementScope(
  parent: PaintScope,
  element: Element,
  rect: DOMRect,
  style: CSSStyleDeclaration,
  overflow: Overflow,
): PaintScope {
  const canvas = parent.kind === 'canvas' ? parent : parent.canvas;
  return { kind: 'element', parent, canvas, element, rect, style, overflow, painted: null, ownText: undefined };
}

function paintedAt(scope: PaintScope): Painted {
  if (scope.painted !== null) {
    return scope.painted;
  }
  let painted: Painted;
  if (scope.kind === 'canvas') {
    painted = { hidden: scope.parent === null ? null : paintedAt(scope.parent).hidden, paint: CANVAS };
  } else {
    const outer = paintedAt(scope.parent);
    // Below a box that hides its contents everything stays hidden (and how it is painted no longer matters).
    painted =
      outer.hidden !== null
        ? outer
        : boxPaintOf(scope.element, scope.rect, outer.paint, scope.style, scope.overflow, scope.canvas.facts);
  }
  scope.painted = painted;
  return painted;
}

/** Why a person cannot see text printed at this scope, or null; worked out on the first text there. */
export function hiddenAt(scope: PaintScope): HiddenReason | null {
  const painted = paintedAt(scope);
  if (painted.hidden !== null || scope.kind === 'canvas') {
    return painted.hidden;
  }
  if (scope.ownText === undefined) {
    scope.ownText = ownTextHidden(scope, painted.paint.background);
  }
  return scope.ownText;
}
