/**
 * The contract between the action routines (core) and their in-page half (src/browser/actions/in-page),
 * which runs in tabpilot's isolated world of each frame. Types only and no DOM types, so both sides compile against it.
 * Coordinates are CSS px in the viewport of the frame's local root (the top page, or the OOPIF the
 * element lives in): the core adds the OOPIF's offset.
 */

/** Where a pointer may land on an element, or why it may not. */
export type PointerTarget = {
  /** The element, described for messages (`<button#buy> "Buy now"`). */
  element: string;
  /** Checkbox and radio state before the action (null for other elements). */
  checked: boolean | null;
  /** The page is hidden (a background tab, a minimized window). */
  hidden: boolean;
} & (
  | { kind: 'point'; x: number; y: number }
  /** Every candidate point hits `cover` instead (another element painted on top). */
  | { kind: 'occluded'; cover: string; x: number; y: number }
  /** No box to aim at: the element has no size, or stays outside the viewport after scrolling. */
  | { kind: 'no-box'; reason: 'zero-size' | 'outside-viewport' }
  /** An element a click cannot operate (a file input opens a native picker; a select a native popup). */
  | { kind: 'refused'; reason: 'file-input' | 'select' }
);

export interface PointerOptions {
  /** Scroll the element into view (centred) when it is not fully visible. */
  scroll: boolean;
  /** Refuse file inputs and selects (clicks do; hovering and dragging do not). */
  refuse: boolean;
  /** Arm a guard for the input about to be sent at the point (null: only locate). */
  guard: GuardKind | null;
}

/** Which events a guard judges: a press (click, the start of a drag) or a move (hover). */
export type GuardKind = 'press' | 'move';

/** What a guard saw of the gesture: its first trusted event reached the element, missed it, or none came. */
export interface GuardVerdict {
  state: 'reached' | 'missed' | 'none';
  /** What the first event hit instead (a miss). */
  hit: string | null;
  /** The page called preventDefault on the gesture's last click: a link then does not follow its URL. */
  prevented: boolean;
}

export type TypingPlan =
  | {
      kind: 'text';
      field: 'input' | 'textarea' | 'contenteditable';
      /** The editable element has focus (its document's active element). */
      focused: boolean;
      /** The URL of the document that receives the text (secrets are checked against it). */
      url: string;
      /** Whether the value is hidden by nature (a password field): never read back. */
      secret: boolean;
      element: string;
    }
  | {
      /** Set directly: date, time, colour and range inputs, date pickers, and appends where no caret can be placed. */
      kind: 'value';
      input_type: string;
      url: string;
      secret: boolean;
      element: string;
    }
  | {
      kind: 'refused';
      reason: 'select' | 'file-input' | 'checkable' | 'not-editable' | 'disabled' | 'read-only';
      element: string;
    };

export interface TypingOptions {
  clear: boolean;
}

/** A read-back of a typed value; `actual` is null when the value must not leave the page. */
export interface ValueCheck {
  matches: boolean;
  actual: string | null;
}

export interface ReadBackOptions {
  clear: boolean;
  /** Compare only; never return the value (secrets, password fields). */
  hide: boolean;
}

export type ScrollDirection = 'up' | 'down' | 'left' | 'right';

export interface ScrollRequest {
  direction: ScrollDirection;
  /** CSS px; when null, `pages` of the container's visible size. */
  amount: number | null;
  pages: number;
}

export type ScrollOutcome =
  | {
      kind: 'scrolled';
      /** 'page' or the container's description. */
      container: string;
      moved_x: number;
      moved_y: number;
      scroll_x: number;
      scroll_y: number;
      /** Nothing more to scroll in that direction. */
      at_end: boolean;
    }
  /** The element is a cross-origin iframe: the core scrolls its document through the frame's session. */
  | { kind: 'remote-frame' };

export interface DropdownOption {
  index: number;
  text: string;
  value: string;
  selected: boolean;
  disabled: boolean;
}

export type DropdownInfo =
  | { kind: 'select'; multiple: boolean; options: DropdownOption[]; element: string }
  | {
      kind: 'listbox' | 'menu';
      options: DropdownOption[];
      element: string;
      /** The list says aria-multiselectable. */
      multiple: boolean;
      /** The list has no size (kept for assistive technology): its options are reached by keys, not clicks. */
      keyboard: boolean;
    }
  /** An ARIA combobox or popup button whose list is not shown: a click opens it. */
  | { kind: 'collapsed'; element: string }
  | { kind: 'none'; element: string };

export type NativeSelectOutcome =
  | { kind: 'selected'; option: DropdownOption }
  /** The page put the old selection back (a framework that did not take the change). */
  | { kind: 'reverted'; option: DropdownOption; now: string }
  | { kind: 'no-match'; options: DropdownOption[] }
  | { kind: 'disabled'; option: DropdownOption };

/** A native multi-select set to exactly a set of options. */
export type NativeExactOutcome =
  | { kind: 'selected'; options: DropdownOption[] }
  /** After input and change the page holds another set than the one asked for. */
  | { kind: 'reverted'; now: string[] }
  | { kind: 'no-match'; missing: string[]; options: DropdownOption[] }
  | { kind: 'disabled'; option: DropdownOption }
  | { kind: 'not-multiple' };

/** The option an ARIA combobox marks active (aria-activedescendant), with its element's id. */
export interface ActiveOption {
  id: string;
  option: DropdownOption;
  /** Its list shows an enabled option after it: a Down key should move the active option there. */
  followed: boolean;
}

export interface FileBytes {
  name: string;
  mime_type: string;
  content_base64: string;
}

export interface FileSummary {
  name: string;
  size: number;
  type: string;
}

/** What is under a viewport point of the top frame (coordinate clicks check it first). */
export interface PointHit {
  in_viewport: boolean;
  element: string | null;
  refused: 'file-input' | 'select' | null;
  /** The point is over an iframe: what is inside is another document. */
  frame: boolean;
}

/** A point moved out of an out-of-process frame, or what covers the frame there. */
export interface FrameHit {
  cover: string | null;
  x: number;
  y: number;
}

/** Where keyboard input would go in this (top) frame. */
export interface FocusInfo {
  url: string;
  /** Focus is inside an iframe: the receiving document is another one. */
  in_frame: boolean;
  element: string | null;
}

export interface ElementInfo {
  tag: string;
  attributes: Record<string, string>;
  box: { x: number; y: number; width: number; height: number } | null;
  text: string;
}

/** In-page functions that return plain values (`this` is the element, or the world's global). */
export interface InPageValueFunctions {
  pointerTarget: { args: [options: PointerOptions]; result: PointerTarget };
  /** pointerTarget of the element with this id of the latest state in the world; null: it is gone. */
  pointerTargetOf: { args: [id: number, options: PointerOptions]; result: PointerTarget | null };
  /** pointerTarget once the pointer moved to (x, y) of the session's viewport has arrived (sent with the move). */
  pointerTargetAfterMove: { args: [options: PointerOptions, x: number, y: number]; result: PointerTarget };
  /** Ends this world's waits for the pointer; whether there were any. */
  releaseArrivals: { args: []; result: boolean };
  /** Clicks by script; whether the page prevented the click's default. */
  scriptClick: { args: []; result: { prevented: boolean } };
  readChecked: { args: []; result: boolean | null };
  prepareTyping: { args: [options: TypingOptions]; result: TypingPlan };
  setValue: { args: [value: string, append: boolean]; result: boolean };
  readBack: { args: [expected: string, options: ReadBackOptions]; result: ValueCheck };
  scrollElement: { args: [request: ScrollRequest]; result: ScrollOutcome };
  scrollPage: { args: [request: ScrollRequest]; result: ScrollOutcome };
  dropdownInfo: { args: []; result: DropdownInfo };
  selectNative: { args: [text: string]; result: NativeSelectOutcome };
  selectNativeExact: { args: [values: string[]]; result: NativeExactOutcome };
  activeOption: { args: []; result: ActiveOption | null };
  dropdownShows: { args: [text: string]; result: boolean };
  dropdownSettled: { args: []; result: boolean };
  setFiles: { args: [files: FileBytes[]]; result: FileSummary[] | { error: 'not-multiple' } };
  filesOf: { args: []; result: FileSummary[] };
  clearFiles: { args: []; result: boolean };
  hitAt: { args: [x: number, y: number]; result: PointHit };
  focusInfo: { args: []; result: FocusInfo };
  frameHit: { args: [x: number, y: number]; result: FrameHit };
  guardPeek: { args: []; result: GuardVerdict };
  guardVerdict: { args: [releases?: number]; result: GuardVerdict };
  renderedFrame: { args: []; result: boolean };
  isHovered: { args: []; result: boolean };
  platform: { args: []; result: string };
  /** The bytes at a URL as the document fetches them (its cookies, the HTTP cache first), base64 (a PDF the tab shows). */
  fetchBase64: { args: [url: string]; result: string };
  /** The focused link's href and download attributes (a key press may follow it); null: no link has focus. */
  focusedLink: { args: []; result: FocusedLink | null };
  /** Records the focused element's next click, until linkClick reads it; false: nothing has focus. */
  armLinkClick: { args: []; result: boolean };
  linkClick: { args: []; result: LinkClick };
  /** Where the focused field's form sends (the agent's risk probe); null outside a form. */
  focusedFormAction: { args: []; result: string | null };
  elementInfo: { args: []; result: ElementInfo };
  collectIndexedDb: { args: []; result: IndexedDbOutcome<SavedDatabase[]> };
  restoreIndexedDb: { args: [databases: SavedDatabase[]]; result: IndexedDbOutcome<number> };
  webStorage: { args: [request: WebStorageRequest]; result: WebStorageOutcome };
  /** The document's origin and localStorage, for a storage state (null for an opaque origin). */
  readLocalStorage: { args: []; result: SavedLocalStorage | null };
  /** Puts a storage state's localStorage into a document of its origin, once per tab (`mark`); false where it did nothing. */
  restoreLocalStorage: { args: [saved: SavedLocalStorage, mark: string]; result: boolean };
  /** Run at a document's start (the bridge's atDocumentStart), before the page's own scripts. */
  restoreIndexedDbAtStart: { args: [origin: string, databases: SavedDatabase[]]; result: boolean };
}

/** A focused link's href and download attributes, as written in the page (each only where it has it). */
export type FocusedLink = Partial<Record<'href' | 'download', string>>;

/** Whether a recorded link was clicked since, and whether the page prevented the click's default. */
export interface LinkClick {
  clicked: boolean;
  prevented: boolean;
}

/** One origin's localStorage as a storage state holds it (Playwright's storageState form). */
export interface SavedLocalStorage {
  origin: string;
  localStorage: Array<{ name: string; value: string }>;
}

/** One operation on the document's localStorage or sessionStorage (key and value '' where the op takes none). */
export interface WebStorageRequest {
  area: 'local' | 'session';
  op: 'list' | 'get' | 'set' | 'delete' | 'clear';
  key: string;
  value: string;
}

/**
 * What the operation came to, with the document's own origin ('null' when opaque). entries: list, all of
 * them; get, the one asked (none when missing); set, the entry as stored; delete, the one removed. cleared:
 * how many a clear removed. `denied`: the document may not use that storage (an opaque origin, site data
 * blocked); `refused`: a write the storage refused (its quota).
 */
export type WebStorageOutcome =
  | { ok: true; origin: string; entries: Array<[key: string, value: string]>; cleared: number }
  | { ok: false; reason: 'denied' | 'refused'; origin: string; error: string };

/** In-page functions that return an element (the core gets a handle to it in the same world). */
export interface InPageHandleFunctions {
  /** The matching option of an ARIA listbox or menu the element opens or is. */
  ariaOption: [text: string];
  /** The file input the element is, labels, contains or sits next to. */
  fileInputNear: [];
  /** The deepest visible element showing the text. */
  findText: [needle: string];
  /** Elements matching a CSS selector in the world's document (the actor's query). */
  querySelectorAll: [selector: string];
}

/** A value in Playwright's tagged serialization (storageState's `valueEncoded` / `keyEncoded`). */
export type EncodedValue =
  | string
  | number
  | boolean
  | null
  | { v: 'undefined' | 'null' | 'NaN' | 'Infinity' | '-Infinity' | '-0' }
  | { d: string }
  | { u: string }
  | { bi: string }
  | { r: { p: string; f: string } }
  | { e: { n: string; m: string; s: string } }
  | { ta: { b: string; k: string } }
  | { ab: { b: string } }
  | { ref: number }
  | { a: EncodedValue[]; id: number }
  | { o: Array<{ k: string; v: EncodedValue }>; id: number }
  | { m: Array<{ k: EncodedValue; v: EncodedValue }>; id: number }
  | { s: EncodedValue[]; id: number };

/** One IndexedDB database of an origin, exactly as Playwright's storageState writes it. */
export interface SavedDatabase {
  name: string;
  version: number;
  stores: Array<{
    name: string;
    autoIncrement: boolean;
    keyPath?: string;
    keyPathArray?: string[];
    records: Array<{ key?: unknown; keyEncoded?: EncodedValue; value?: unknown; valueEncoded?: EncodedValue }>;
    indexes: Array<{ name: string; keyPath?: string; keyPathArray?: string[]; multiEntry: boolean; unique: boolean }>;
  }>;
}

/**
 * What reading or writing an origin's IndexedDB came to: the databases, or why not. `unsavable`: a value
 * no storage state can hold (a Blob); `blocked`: the page keeps a database open that a restore replaces.
 */
export type IndexedDbOutcome<T> =
  { ok: true; value: T } | { ok: false; reason: 'unsavable' | 'blocked' | 'failed'; error: string };
