/**
 * The contract between the perception code in the page (src/dom/in-page) and the core: the options and
 * results of its functions, and the functions themselves. Types only (and the locator selector's prefix);
 * both sides compile against it.
 */
import type { PackedLine } from './wire';

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
  /**
   * The state's character budget (0: none). The walk stops once its lines are sure to fill it: what lies
   * past the budget is cut from the text anyway, and on a big page it is most of the work.
   */
  maxChars: number;
}

/** What one collection (a document or a shadow root) returns, as the JSON string that crosses CDP. */
export interface CollectResult {
  lines: PackedLine[];
  metrics: PageMetrics;
  stats: CollectStats;
  /** The in-page pass's own time in ms. */
  elapsedMs: number;
  /** The walk stopped at the character budget: the page goes on past the last line. */
  cut: boolean;
}

/** Elements counted while walking, for the page stats. */
export interface CollectStats {
  elements: number;
  interactive: number;
  iframes: number;
  shadowRoots: number;
  images: number;
  links: number;
}

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

export interface FindMatchesOptions {
  text?: string | undefined;
  regex?: string | undefined;
  caseSensitive: boolean;
  /** Matches returned (all are counted). */
  limit: number;
  contextChars: number;
}

/** One match of `find` in a frame's world: its element (given an in-world id, so it can be indexed). */
export interface FrameMatch {
  text: string;
  context: string;
  /** In-world id of the smallest interactive-or-text element holding the match (now resolvable). */
  id: number;
  tag: string;
  role: string | null;
  name: string;
  /** The element's box in the viewport of the frame the call ran in (same-origin frames moved into it). */
  box: { x: number; y: number; width: number; height: number };
  /** Whether the element shows in that viewport (and in every same-origin frame's on the way). */
  visible: boolean;
  /** The URL of the document the match is in when it is a same-origin iframe's, else null. */
  frame: string | null;
}

export interface FrameMatches {
  matches: FrameMatch[];
  total: number;
  url: string;
  viewportWidth: number;
  viewportHeight: number;
}

/** What `watchChanges` says as it starts watching for an action's outcome. */
export interface WatchStart {
  watching: true;
  /** The element the action names is disabled (the page ignores input to it). */
  target_disabled: boolean;
}

/** An element an outcome names: an in-world id (the core gives it an index) and how it reads. */
export interface ChangedElement {
  id: number;
  /** `button "Save"`, `textbox "Email" value "a@b.c"`. */
  label: string;
  tag: string;
  role: string | null;
  name: string;
  /** Its box in the frame's viewport (zero for an element that went). */
  box: { x: number; y: number; width: number; height: number };
}

/** What changed in a frame's document while an action's outcome was watched (see in-page/changes.ts). */
export interface PageChanges {
  /** The URL and title when they changed (a same-document navigation, a title set by script); else null. */
  url: string | null;
  title: string | null;
  appeared: ChangedElement[];
  removed: ChangedElement[];
  changed: ChangedElement[];
  texts_appeared: string[];
  texts_removed: string[];
  /** Items the lists left out past their bounds. */
  more: number;
  /** The acted element left the document. */
  target_gone: boolean;
}

/**
 * The perception functions in the page, by name (src/dom/in-page/entry.ts). `collect` runs with `this`
 * = the frame's global (its document) or a closed shadow root the core found; it returns the
 * CollectResult as a JSON string.
 */
export interface PerceptionValueFunctions {
  collect: { args: [options: CollectOptions, stateKey: string]; result: string };
  highlight: { args: [id: number | null, label: string]; result: boolean };
  markdown: { args: [options: MarkdownOptions]; result: MarkdownResult };
  search: { args: [options: SearchOptions]; result: { matches: SearchMatch[]; total: number } };
  cssQuery: { args: [options: FindOptions]; result: { elements: FoundElement[]; total: number } };
  retention: { args: []; result: WorldRetention };
  findMatches: { args: [options: FindMatchesOptions]; result: FrameMatches };
  /** Scrolls the element an in-world id names to the middle of the view; false when it is gone. */
  revealMatch: { args: [id: number]; result: boolean };
  /** `this` = an iframe element: where its content starts in its own document's viewport. */
  frameContentOrigin: { args: []; result: { x: number; y: number } };
  /** Starts watching the document for an action's outcome; the in-world id of the element acted on, if any. */
  watchChanges: { args: [targetId: number | null]; result: WatchStart };
  /** How long the watched document has been quiet; null when nothing watches (another document). */
  changesQuiet: { args: []; result: { quiet_ms: number; watched_ms: number } | null };
  /** Ends the watch with what changed; null when nothing watched. */
  takeChanges: { args: []; result: PageChanges | null };
  /** Starts telling a flow recording the person's trusted input through this world's binding; false without it. */
  recordListen: { args: [binding: string]; result: boolean };
  /** Stops telling it; false when nothing listened in this document. */
  recordUnlisten: { args: []; result: boolean };
  /** The document's path (a recorded step's expectation). */
  recordPath: { args: []; result: string };
  /** How a flow names the element an in-world id names in the latest state; null when it is gone. */
  locatorOf: { args: [id: number]; result: ElementLocator | null };
}

/**
 * The control indicator's functions in the page, by name (src/dom/in-page/indicator.ts), called in the top
 * frame's world of a controlled tab by the control-indicator watchdog (src/browser/indicator).
 */
export interface IndicatorValueFunctions {
  /** Shows the indicator (made on first use) for `leaseMs` more; answers true. */
  indicatorRenew: { args: [leaseMs: number]; result: boolean };
  /** Takes it down at once (the tab is released); answers true. */
  indicatorRemove: { args: []; result: boolean };
  /**
   * Waits for a person's press of Stop: 'stop' at once when pressed (or pressed while no one waited),
   * 'idle' after `waitMs`, to be asked again.
   */
  indicatorStopPressed: { args: [waitMs: number]; result: 'stop' | 'idle' };
}

/** Perception functions that return an element. */
export interface PerceptionHandleFunctions {
  /** The element an in-world id names in the latest state, or null when it is gone. */
  resolve: [id: number];
}

/**
 * How a recorded step names its element so that a reload or a changed index does not lose it (the
 * flow file's locator, src/protocol/flow.ts): by role and accessible name, by label, by text, by test id
 * or by a CSS path, the order they are derived in (src/dom/in-page/locator.ts).
 */
export type PageLocator =
  { role: string; name: string } | { label: string } | { text: string } | { test_id: string } | { css: string };

/**
 * One input of the person's while a flow is recorded (src/dom/in-page/recorder.ts), as the page tells
 * the worker: what they did, to which element, and the document's path when they did it. A password
 * field's value comes only to be turned into a placeholder; it is never kept.
 */
export type RecordedInput =
  | { kind: 'click'; locator: PageLocator; path: string }
  | { kind: 'fill'; locator: PageLocator; value: string; password: boolean; path: string }
  | { kind: 'select'; locator: PageLocator; value: string; path: string }
  | { kind: 'upload'; locator: PageLocator; files: string[]; path: string }
  | { kind: 'press'; key: string; path: string };

/**
 * An element an agent's action names, as its run's flow keeps it: the locator derived as the recorder
 * derives one, its CSS path too (when the locator would carry a secret the page shows, the path is
 * used), and whether it is a password field (whose typed value a flow never keeps).
 */
export interface ElementLocator {
  locator: PageLocator;
  css: string;
  password: boolean;
}

/** A selector `find_elements` reads as a locator instead of CSS: this prefix, then the locator's JSON. */
export const LOCATOR_SELECTOR_PREFIX = 'locator=';
