/**
 * Text a person cannot see: set in a zero font size, moved where no scrolling reaches (far off to the
 * left or above the page, or indented out of its box), clipped to nothing (clip, clip-path, a zero-size
 * box with overflow hidden), or painted in the colour of what lies behind it. Pages use it to hide
 * instructions for a model; the collector leaves it out of the state (or marks it). What scrolling
 * reveals is not hidden (content below the fold, inside a scroll container), and screen-reader text
 * (the sr-only clip or off-screen patterns) is kept where it names a control.
 */
import type { Clip } from './geometry';

export type HiddenReason = 'zero font size' | 'off-screen' | 'clipped' | 'transparent' | 'same colour as background';

/** What an element's descendants are painted within: the clip of overflowing ancestors, the colour behind. */
export interface Paint {
  /** In this frame's viewport coordinates; null: nothing clips. */
  readonly clip: Clip | null;
  /** The opaque colour behind, as [r, g, b]; null when it cannot be told (an image, a translucent layer). */
  readonly background: readonly [number, number, number] | null;
}

/** A page's canvas is white unless something paints over it. */
export const CANVAS: Paint = { clip: null, background: [255, 255, 255] };

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

function rgba(value: string): [number, number, number, number] | null {
  const match = /^rgba?\(([^)]+)\)$/.exec(value);
  if (match === null) {
    return null;
  }
  const parts = (match[1] ?? '')
    .split(/[\s,/]+/)
    .filter((part) => part !== '')
    .map(Number);
  return [parts[0] ?? 0, parts[1] ?? 0, parts[2] ?? 0, parts[3] ?? 1];
}

function luminance([r, g, b]: readonly [number, number, number]): number {
  const channel = (value: number): number => {
    const s = value / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

/** WCAG contrast ratio; below this a person cannot tell the text from its background. */
const MIN_CONTRAST = 1.1;

function contrast(a: readonly [number, number, number], b: readonly [number, number, number]): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

function intersect(outer: Clip | null, inner: Clip): Clip {
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

/** Less than about a pixel either way: the sr-only box, or a box clipped away. */
function empty(clip: Clip): boolean {
  return clip.right - clip.left < 1.5 || clip.bottom - clip.top < 1.5;
}

const ZERO_CLIP_PATH = /^inset\(\s*(50|100)%|^circle\(\s*0(px)?\s*[ a]|^polygon\(\s*0(px)?\s+0(px)?\s*\)$/;

/**
 * Why the text of a shown element would not be seen, given what its ancestors paint, and what its own
 * descendants are painted within. One computed style per element (already resolved for the collector's
 * other reads).
 */
export function hiddenTextOf(
  element: Element,
  rect: DOMRect,
  outer: Paint,
  style: CSSStyleDeclaration,
): { reason: HiddenReason | null; paint: Paint } {
  let clip = outer.clip;
  let reason: HiddenReason | null = null;
  if (
    clip !== null &&
    (rect.right <= clip.left || rect.left >= clip.right || rect.bottom <= clip.top || rect.top >= clip.bottom)
  ) {
    reason = 'clipped';
  }
  if (style.clip !== 'auto' && style.clip !== '' && style.position !== 'static') {
    const edges = /rect\(([^)]*)\)/
      .exec(style.clip)?.[1]
      ?.split(/[\s,]+/)
      .map((part) => parseFloat(part));
    if (edges !== undefined && edges.length === 4) {
      const [top = 0, right = 0, bottom = 0, left = 0] = edges;
      if (right - left < 1.5 || bottom - top < 1.5) {
        reason ??= 'clipped';
      }
    }
  }
  if (style.clipPath !== 'none' && ZERO_CLIP_PATH.test(style.clipPath)) {
    reason ??= 'clipped';
  }
  const overflowX = style.overflowX;
  const overflowY = style.overflowY;
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
    clip = intersect(clip, own);
    if (empty(clip)) {
      reason ??= 'clipped';
    }
  }
  if (parseFloat(style.fontSize) < 1) {
    reason ??= 'zero font size';
  }
  const view = element.ownerDocument.defaultView;
  if (view !== null) {
    const rtl = element.ownerDocument.documentElement.dir === 'rtl';
    // Scrolling never goes left of the page's start (right of it, in a right-to-left page) or above its top.
    if (rect.bottom + view.scrollY <= 0 || (!rtl && rect.right + view.scrollX <= 0)) {
      reason ??= 'off-screen';
    }
    if (parseFloat(style.textIndent) <= -Math.max(rect.width, 100)) {
      reason ??= 'off-screen';
    }
  }
  let background = outer.background;
  if (style.backgroundImage !== 'none') {
    background = null;
  } else {
    const own = rgba(style.backgroundColor);
    if (own !== null && own[3] >= 1) {
      background = [own[0], own[1], own[2]];
    } else if (own !== null && own[3] > 0) {
      background = null;
    }
  }
  const color = rgba(style.color);
  if (color !== null) {
    if (color[3] === 0) {
      reason ??= 'transparent';
    } else if (
      color[3] >= 1 &&
      background !== null &&
      contrast([color[0], color[1], color[2]], background) < MIN_CONTRAST
    ) {
      reason ??= 'same colour as background';
    }
  }
  return { reason, paint: { clip, background } };
}

/** Looks at an element's paint where its text would be shown; below hidden text everything stays hidden. */
export function notePaint(walk: { hidden: HiddenReason | null; paint: Paint }, element: Element, rect: DOMRect): void {
  if (walk.hidden !== null) {
    return;
  }
  const found = hiddenTextOf(element, rect, walk.paint, getComputedStyle(element));
  walk.hidden = found.reason;
  walk.paint = found.paint;
}
