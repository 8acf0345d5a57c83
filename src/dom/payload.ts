/**
 * What the in-page collector returns for one document or shadow root: the page as lines, already
 * reduced in the page (one pass, no AX tree), so the transfer is about the size of the final text.
 * Shared by the in-page code (src/dom/in-page) and the core; types only.
 */
export const COLLECTOR_VERSION = 3;

/** What the isolated world keeps between states, in counts (a debug figure). */
export interface WorldRetention {
  /** Elements held for the latest state, and for the one before it (an action may still name those). */
  indexed: number;
  previous: number;
  /** Ids given out in this document so far; ids live in a WeakMap, so removed elements are not held. */
  ids_given: number;
}

export interface CollectOptions {
  /** Extra CSS px around the viewport that still counts as in view; -1 takes the whole page. */
  viewportExpansion: number;
  /** Longest text line kept, in characters. */
  maxTextLength: number;
  /** Depth added to every line (for content stitched under an iframe or a closed shadow host). */
  baseDepth: number;
  /** Whether this is the first collection in this document (nothing is marked new then). */
  markNew: boolean;
  /** Text a person cannot see: left out, or kept marked `[hidden: why]`. */
  hiddenText: 'omit' | 'mark';
}

/** An element printed on its own line: interactive, scrollable, an iframe or a shadow host. */
export interface ElementLine {
  kind: 'element';
  depth: number;
  tag: string;
  /** In-world id (stable for the element's life in this document); set when the element is indexed. */
  id: number | undefined;
  isNew: boolean;
  role: string | null;
  name: string;
  /** The attributes shown to the model, in print order. */
  attributes: Array<[string, string]>;
  /** Viewport box in this frame's CSS px: x, y, width, height. */
  box: [number, number, number, number];
  /** Pages of content scrollable in each direction: above, below, left, right. */
  scroll: [number, number, number, number] | null;
  shadow: 'open' | 'closed' | null;
  /** Iframes: 'inline' (same-origin, content follows), 'remote' (an OOPIF, stitched by the core). */
  frame: 'inline' | 'remote' | null;
  /** For remote frames: where the frame's content box starts, in this frame's viewport px. */
  frameOrigin: [number, number] | null;
}

export interface TextLine {
  kind: 'text';
  depth: number;
  text: string;
}

/** A host that may have a closed shadow root the page cannot see; the core asks CDP. */
export interface ClosedHostLine {
  kind: 'closed-host';
  depth: number;
  /** In-world id of the host element. */
  id: number;
}

export type Line = ElementLine | TextLine | ClosedHostLine;

/** A resource the page is still loading (Performance API entries without a response end). */
export interface PendingRequest {
  url: string;
  resourceType: string;
  loadingMs: number;
}

export interface PageMetrics {
  url: string;
  title: string;
  pending: PendingRequest[];
  viewportWidth: number;
  viewportHeight: number;
  pageWidth: number;
  pageHeight: number;
  scrollX: number;
  scrollY: number;
}

export interface CollectResult {
  version: number;
  lines: Line[];
  metrics: PageMetrics;
  /** Elements counted while walking, for the page stats. */
  stats: { elements: number; interactive: number; iframes: number; shadowRoots: number; images: number; links: number };
  /** The in-page pass's own time in ms. */
  elapsedMs: number;
}

export interface MarkdownOptions {
  extractLinks: boolean;
  extractImages: boolean;
  startFromChar: number;
  maxChars: number;
}

export interface MarkdownResult {
  url: string;
  title: string;
  markdown: string;
  total_chars: number;
  start_from_char: number;
  /** Where the next chunk starts, or null when this one reached the end. */
  next_start_char: number | null;
}

export interface SearchOptions {
  pattern: string;
  regex: boolean;
  caseSensitive: boolean;
  contextChars: number;
  cssScope: string | null;
  maxResults: number;
}

export interface SearchMatch {
  match: string;
  context: string;
  element_path: string;
}

export interface FindOptions {
  selector: string;
  attributes: string[];
  maxResults: number;
  includeText: boolean;
}

export interface FoundElement {
  tag: string;
  attributes: Record<string, string>;
  children: number;
  text?: string;
  /** In-world id when the element was indexed in the latest state (the core maps it to an index). */
  id: number | null;
}
