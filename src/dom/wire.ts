/**
 * The page as the collector sends it: one JSON string of lines packed as arrays, so the keys of every
 * line are not sent ten thousand times over. CDP moves a returned string at roughly 130 ms per MB here
 * and a returned object at twice that, so the page sends one string of packed lines (less than half the
 * bytes of the same lines as objects). This packed line is also what the core stitches and serializes:
 * it is the one shape an element has between the collector and the selector entry. Shared by the
 * in-page collector and the core; types and small readers only.
 */
export type PackedText = [kind: 0, depth: number, text: string];
/** A host that may have a closed shadow root the page cannot see: the core asks CDP. */
export type PackedClosedHost = [kind: 2, depth: number, id: number];
export type PackedElement = [
  kind: 1,
  depth: number,
  tag: string,
  /** In-world id (stable for the element's life in its document); -1: not indexed. */
  id: number,
  isNew: 0 | 1,
  role: string | null,
  /** The accessible name. */
  name: string,
  /** The attributes shown to the model, in print order: names and values, alternating. */
  attributes: string[],
  /** Viewport box in CSS px: of the element's frame in the page, of the tab once the core placed it. */
  x: number,
  y: number,
  width: number,
  height: number,
  /** Only for scroll containers, shadow hosts and iframes. */
  extra?: ElementExtra,
];
export type PackedLine = PackedText | PackedClosedHost | PackedElement;

export interface ElementExtra {
  /** Pages of content scrollable in each direction: above, below, left, right. */
  scroll: [number, number, number, number] | null;
  shadow: 'open' | 'closed' | null;
  /** Iframes: 'inline' (same-origin, content follows), 'remote' (an OOPIF, stitched by the core). */
  frame: 'inline' | 'remote' | null;
  /** For remote frames: where the frame's content box starts, in this frame's viewport px. */
  frameOrigin: [number, number] | null;
}

const NO_EXTRA: ElementExtra = { scroll: null, shadow: null, frame: null, frameOrigin: null };

export function isElementLine(line: PackedLine): line is PackedElement {
  return line[0] === 1;
}

/** An element's scroll, shadow and frame facts (all null for most elements). */
export function extraOf(line: PackedElement): ElementExtra {
  return line[12] ?? NO_EXTRA;
}

/** The in-world id of an indexed element line, else undefined. */
export function idOf(line: PackedElement): number | undefined {
  return line[3] === -1 ? undefined : line[3];
}

/** The attributes as name and value pairs. */
export function attributesOf(line: PackedElement): Array<[string, string]> {
  const flat = line[7];
  const pairs: Array<[string, string]> = [];
  for (let at = 0; at + 1 < flat.length; at += 2) {
    pairs.push([flat[at] ?? '', flat[at + 1] ?? '']);
  }
  return pairs;
}
