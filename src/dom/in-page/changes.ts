/**
 * The in-page half of an action's verified outcome: a MutationObserver on the frame's document from just
 * before the action until the core takes the changes, and the form controls' values before it (a typed
 * value changes no DOM). What it answers is read against what the model last saw: an interactive element
 * "appeared" when it shows now and the latest state did not index it, and "went" when the latest state
 * indexed it and it no longer shows. Only this frame's document is watched (iframes are not).
 */
import type { ChangedElement, PageChanges, WatchStart } from '../payload';
import { accessibleName, isControl, isDisabled, roleOf } from './semantics';
import { idOf, indexedId, resolve, worldState } from './world-state';

/** Bounds: nodes remembered per kind, and nodes walked looking for what appeared. */
const NODES_KEPT = 500;
const NODES_WALKED = 3_000;
const CONTROLS_KEPT = 2_000;
const LIST_MAX = 6;
const TEXTS_MAX = 4;
const TEXT_CHARS = 80;
const LABEL_CHARS = 60;
/** The attributes whose change can show, hide or restate an element. */
const WATCHED_ATTRIBUTES = [
  'class',
  'style',
  'hidden',
  'open',
  'disabled',
  'aria-hidden',
  'aria-expanded',
  'aria-checked',
  'aria-selected',
  'aria-pressed',
];
/** Changed state an element reports besides its value. */
const STATE_ATTRIBUTES = new Set(['aria-expanded', 'aria-checked', 'aria-selected', 'aria-pressed', 'disabled']);
const SKIP_TEXT = new Set(['script', 'style', 'noscript', 'template', 'head', 'title']);

interface Watch {
  readonly observer: MutationObserver;
  readonly startedAt: number;
  lastChangeAt: number;
  readonly added: Set<Node>;
  readonly removed: Set<Node>;
  /** Elements an attribute changed on, with the attribute names and their old values. */
  readonly attributes: Map<Element, Map<string, string | null>>;
  readonly controls: Map<Element, string>;
  readonly title: string;
  readonly url: string;
  /** The element acted on, when the action named one in this frame. */
  readonly target: Element | null;
  /** Indexed elements already gone when the watch began: an earlier action's outcome named them. */
  readonly goneBefore: Set<Element>;
}

function holder(): { __tabpilotWatch?: Watch } {
  return globalThis as unknown as { __tabpilotWatch?: Watch };
}

/** A control's value and checked state as one comparable string (never shown as it is). */
function controlState(control: Element): string {
  const input = control as HTMLInputElement;
  return `${String(input.value)}\u0000${String(input.checked)}`;
}

/** Starts watching (ending a watch left over); says whether the acted element is disabled. */
export function watchChanges(targetId: number | null): WatchStart {
  holder().__tabpilotWatch?.observer.disconnect();
  const now = performance.now();
  const watch: Watch = {
    observer: new MutationObserver((records) => {
      // An inline style that changes every frame (a script's animation, a carousel) would keep the page
      // from ever being quiet: style changes are noted, but only other changes make the page busy.
      if (records.some((record) => record.attributeName !== 'style')) {
        watch.lastChangeAt = performance.now();
      }
      for (const record of records) {
        noteRecord(watch, record);
      }
    }),
    startedAt: now,
    lastChangeAt: now,
    added: new Set(),
    removed: new Set(),
    attributes: new Map(),
    controls: new Map(),
    title: document.title,
    url: location.href,
    target: targetId === null ? null : resolve(targetId),
    goneBefore: new Set([...worldState().current.values()].filter((element) => !element.isConnected)),
  };
  const controls = document.querySelectorAll('input, select, textarea');
  for (let i = 0; i < controls.length && i < CONTROLS_KEPT; i++) {
    const control = controls[i];
    if (control !== undefined) {
      watch.controls.set(control, controlState(control));
    }
  }
  watch.observer.observe(document, {
    subtree: true,
    childList: true,
    characterData: true,
    attributes: true,
    attributeOldValue: true,
    attributeFilter: WATCHED_ATTRIBUTES,
  });
  holder().__tabpilotWatch = watch;
  return { watching: true, target_disabled: watch.target !== null && isDisabled(watch.target) };
}

function noteRecord(watch: Watch, record: MutationRecord): void {
  if (record.type === 'childList') {
    for (const node of Array.from(record.addedNodes)) {
      if (watch.added.size < NODES_KEPT) {
        watch.added.add(node);
      }
    }
    for (const node of Array.from(record.removedNodes)) {
      if (!watch.added.delete(node) && watch.removed.size < NODES_KEPT) {
        watch.removed.add(node);
      }
    }
  } else if (record.type === 'characterData') {
    if (watch.added.size < NODES_KEPT) {
      watch.added.add(record.target);
    }
  } else if (record.target instanceof Element && record.attributeName !== null) {
    let changed = watch.attributes.get(record.target);
    if (changed === undefined) {
      if (watch.attributes.size >= NODES_KEPT) {
        return;
      }
      changed = new Map();
      watch.attributes.set(record.target, changed);
    }
    // The first old value is the one from before the action.
    if (!changed.has(record.attributeName)) {
      changed.set(record.attributeName, record.oldValue);
    }
  }
}

/** How long the page has been quiet, and how long it has been watched (ms); null when nothing watches. */
export function changesQuiet(): { quiet_ms: number; watched_ms: number } | null {
  const watch = holder().__tabpilotWatch;
  if (watch === undefined) {
    return null;
  }
  const now = performance.now();
  return { quiet_ms: Math.round(now - watch.lastChangeAt), watched_ms: Math.round(now - watch.startedAt) };
}

/** Ends the watch and says what changed; null when nothing watched (another document). */
export function takeChanges(): PageChanges | null {
  const watch = holder().__tabpilotWatch;
  if (watch === undefined) {
    return null;
  }
  watch.observer.disconnect();
  for (const record of watch.observer.takeRecords()) {
    noteRecord(watch, record);
  }
  delete holder().__tabpilotWatch;
  const counted = { more: 0 };
  const appeared = listed(appearedElements(watch), counted);
  const removed = listed(removedElements(watch), counted);
  const changed = listed(changedElements(watch), counted);
  return {
    url: location.href === watch.url ? null : location.href,
    title: document.title === watch.title ? null : document.title,
    appeared,
    removed,
    changed,
    texts_appeared: listed(appearedTexts(watch), counted, TEXTS_MAX),
    texts_removed: listed(removedTexts(watch), counted, TEXTS_MAX),
    more: counted.more,
    target_gone: watch.target !== null && !watch.target.isConnected,
  };
}

function listed<T>(items: T[], counted: { more: number }, max = LIST_MAX): T[] {
  counted.more += Math.max(0, items.length - max);
  return items.slice(0, max);
}

function shows(element: Element): boolean {
  if (!element.isConnected || !element.checkVisibility({ visibilityProperty: true, opacityProperty: true })) {
    return false;
  }
  const rect = element.getBoundingClientRect();
  return rect.width > 0 && rect.height > 0;
}

function inView(element: Element): boolean {
  const rect = element.getBoundingClientRect();
  return rect.bottom > 0 && rect.right > 0 && rect.top < innerHeight && rect.left < innerWidth;
}

function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** How the outcome reads an element: `button "Save"`, its role (else its tag) and name, a value after. */
function named(element: Element, value: string | null = null): Omit<ChangedElement, 'id' | 'box'> {
  const tag = element.localName;
  const role = roleOf(element, tag);
  const name = clip(accessibleName(element, tag), LABEL_CHARS);
  return {
    label: `${role ?? tag}${name === '' ? '' : ` "${name}"`}${value === null ? '' : ` ${value}`}`,
    tag,
    role,
    name,
  };
}

/** An element as the outcome names it, given an in-world id so an action can take it by its index. */
function described(element: Element, value: string | null = null): ChangedElement {
  const rect = element.getBoundingClientRect();
  return {
    id: idOf(worldState(), element),
    ...named(element, value),
    box: { x: rect.x, y: rect.y, width: rect.width, height: rect.height },
  };
}

/** The elements under `roots` (themselves included), walked in order until the bound. */
function* elementsUnder(roots: Iterable<Node>, budget: { left: number }): Generator<Element> {
  for (const root of roots) {
    if (!(root instanceof Element) || !root.isConnected) {
      continue;
    }
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
    for (let node: Node | null = root; node !== null && budget.left > 0; node = walker.nextNode()) {
      budget.left--;
      yield node as Element;
    }
  }
}

/** Controls that show now in the viewport and the latest state did not index: new to the model. */
function appearedElements(watch: Watch): ChangedElement[] {
  const roots = [...watch.added, ...[...watch.attributes.keys()].filter((element) => !isPageRoot(element))];
  const seen = new Set<Element>();
  const out: ChangedElement[] = [];
  for (const element of elementsUnder(roots, { left: NODES_WALKED })) {
    if (seen.has(element)) {
      continue;
    }
    seen.add(element);
    const tag = element.localName;
    if (indexedId(element) === undefined && isControl(element, tag, roleOf(element, tag)) && shows(element)) {
      if (inView(element)) {
        out.push(described(element));
      }
    }
  }
  return out;
}

function isPageRoot(element: Element): boolean {
  return element === document.documentElement || element === document.body;
}

/**
 * Elements the latest state indexed that are gone, or that no longer show under an element whose
 * attributes changed (a menu closed by its class); other indexed elements are not looked at.
 */
function removedElements(watch: Watch): ChangedElement[] {
  const gone = new Set<Element>();
  for (const element of worldState().current.values()) {
    if (!element.isConnected && !watch.goneBefore.has(element)) {
      gone.add(element);
    }
  }
  const changedRoots = [...watch.attributes.keys()].filter((element) => !isPageRoot(element));
  for (const element of elementsUnder(changedRoots, { left: NODES_WALKED })) {
    if (indexedId(element) !== undefined && !shows(element)) {
      gone.add(element);
    }
  }
  // The id it had (idOf would index it again); a gone element has no box.
  return [...gone].map((element) => ({
    id: worldState().ids.get(element) ?? 0,
    ...named(element),
    box: { x: 0, y: 0, width: 0, height: 0 },
  }));
}

/** Controls whose value or checked state changed, and elements whose ARIA state or disabled changed. */
function changedElements(watch: Watch): ChangedElement[] {
  const out: ChangedElement[] = [];
  for (const [control, before] of watch.controls) {
    if (control.isConnected && controlState(control) !== before) {
      out.push(described(control, valueWords(control)));
    }
  }
  for (const [element, attributes] of watch.attributes) {
    const states = [...attributes.keys()].filter((name) => STATE_ATTRIBUTES.has(name));
    const words = states
      .filter((name) => element.getAttribute(name) !== attributes.get(name))
      .map((name) => stateWords(element, name));
    if (words.length > 0 && element.isConnected && !watch.controls.has(element)) {
      out.push(described(element, words.join(' ')));
    }
  }
  return out;
}

/** An ARIA state as `expanded=true`; disabled as `disabled` or `enabled`. */
function stateWords(element: Element, name: string): string {
  const now = element.getAttribute(name);
  if (name === 'disabled') {
    return now === null ? 'enabled' : 'disabled';
  }
  return `${name.replace('aria-', '')}=${now ?? 'false'}`;
}

/** What a changed control now holds: checked or not, or its value (never a password's). */
function valueWords(control: Element): string {
  const input = control as HTMLInputElement;
  if (input.type === 'checkbox' || input.type === 'radio') {
    return input.checked ? 'checked' : 'unchecked';
  }
  if (input.type === 'password') {
    return 'value changed';
  }
  if (control.localName === 'select') {
    const select = control as HTMLSelectElement;
    return `selected ${JSON.stringify(clip(select.selectedOptions[0]?.text ?? '', LABEL_CHARS))}`;
  }
  return `value ${JSON.stringify(clip(String(input.value), LABEL_CHARS))}`;
}

/** Text a person now reads that came with the action: added nodes, and parts an attribute revealed. */
function appearedTexts(watch: Watch): string[] {
  const texts: string[] = [];
  const roots: Element[] = [];
  for (const node of watch.added) {
    const element = node instanceof Element ? node : node.parentElement;
    if (element !== null) {
      roots.push(element);
    }
  }
  for (const [element, attributes] of watch.attributes) {
    if (!isPageRoot(element) && revealedBy(element, attributes)) {
      roots.push(element);
    }
  }
  for (const root of outermost(roots)) {
    if (root.isConnected && !SKIP_TEXT.has(root.localName) && shows(root)) {
      const text = clip((root as HTMLElement).innerText ?? root.textContent ?? '', TEXT_CHARS);
      if (text !== '' && !texts.includes(text)) {
        texts.push(text);
      }
    }
  }
  return texts;
}

/** An attribute change that showed the element: `hidden` or an inline display:none gone, `open` set, a class added. */
function revealedBy(element: Element, attributes: Map<string, string | null>): boolean {
  for (const [name, old] of attributes) {
    const now = element.getAttribute(name);
    if (name === 'hidden' && old !== null && now === null) return true;
    if (name === 'open' && old === null && now !== null) return true;
    if (name === 'aria-hidden' && old === 'true' && now !== 'true') return true;
    if (
      name === 'style' &&
      /display:\s*none|visibility:\s*hidden/.test(old ?? '') &&
      !/display:\s*none/.test(now ?? '')
    ) {
      return true;
    }
    if (
      name === 'class' &&
      (now ?? '').length > (old ?? '').length &&
      (old ?? '').split(/\s+/).every((c) => (now ?? '').includes(c))
    ) {
      return (element.textContent ?? '').length <= 200;
    }
  }
  return false;
}

/** Text of removed subtrees that people could read: their text, cut short. */
function removedTexts(watch: Watch): string[] {
  const texts: string[] = [];
  for (const node of watch.removed) {
    if (node instanceof Element && SKIP_TEXT.has(node.localName)) {
      continue;
    }
    const text = clip(node.textContent ?? '', TEXT_CHARS);
    if (text !== '' && !texts.includes(text)) {
      texts.push(text);
    }
  }
  return texts;
}

/** The elements not inside another of them (their text holds the inner ones'). */
function outermost(elements: Element[]): Element[] {
  const unique = [...new Set(elements)];
  return unique.filter((element) => !unique.some((other) => other !== element && other.contains(element)));
}
