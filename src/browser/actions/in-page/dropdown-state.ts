/**
 * What a dropdown holds and shows: the option an ARIA combobox marks active, whether the control now
 * shows a chosen option, whether a closed popup has gone, and a native multi-select set to exactly a set.
 */
import type { ActiveOption, NativeExactOutcome } from '../in-page-api';
import { isInput, isTextArea } from '../../../dom/in-page/realm';
import { composedParent, deepActiveElement, nextTask, setNative } from './describe';
import { ariaItems, ariaListOf, ariaOptionData, matches, nativeOptions, nativeSelectOf } from './dropdown';

const SHOWN_DEPTH = 2;
const CONTROLS = 'input, select, textarea, button, [role=combobox]';
const LIST_PARTS = '[role=listbox], [role=menu], [role=option], [role=menuitem]';

function normalize(text: string): string {
  return text.replace(/\s+/g, ' ').trim().toLowerCase();
}

/** The element naming the active option: this one, a combobox inside it, or what has focus now. */
function activeDescendantOwner(element: Element): Element | null {
  if (element.hasAttribute('aria-activedescendant')) {
    return element;
  }
  const inner = element.querySelector('[aria-activedescendant]');
  if (inner !== null) {
    return inner;
  }
  const focused = deepActiveElement(element.ownerDocument);
  return focused?.hasAttribute('aria-activedescendant') === true ? focused : null;
}

export function activeOption(this: Element): ActiveOption | null {
  const owner = activeDescendantOwner(this);
  const id = owner?.getAttribute('aria-activedescendant') ?? '';
  if (owner === null || id === '') {
    return null;
  }
  const item = (owner.getRootNode() as Document | ShadowRoot).getElementById(id);
  return item === null ? null : { id, option: ariaOptionData(item, 0), followed: enabledOptionAfter(item) };
}

/**
 * Whether the active option's list shows an enabled option after it, one the Down key moves to (Ant
 * Design's list for assistive technology holds the active option's next neighbour, so it says it too).
 */
function enabledOptionAfter(item: Element): boolean {
  const list = item.closest('[role=listbox], [role=menu]');
  if (list === null) {
    return false;
  }
  const items = ariaItems(list);
  const at = items.indexOf(item);
  return (
    at >= 0 &&
    items.slice(at + 1).some((next) => next.getAttribute('aria-disabled') !== 'true' && !next.hasAttribute('disabled'))
  );
}

/** The text a control shows: its own value and visible text, outside any list or option it holds. */
function shownText(container: Element): string {
  const parts: string[] = [];
  if (isInput(container) || isTextArea(container)) {
    parts.push(container.value);
  }
  for (const field of Array.from(container.querySelectorAll('input, textarea'))) {
    parts.push((field as HTMLInputElement).value);
  }
  const walker = container.ownerDocument.createTreeWalker(container, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (parent !== null && parent.closest(LIST_PARTS) === null && parent.checkVisibility()) {
      parts.push(node.textContent ?? '');
    }
  }
  return normalize(parts.join(' '));
}

/**
 * Whether the control shows `text` as its value: in itself, or in an ancestor at most two levels up that
 * holds no other control (React Select and Ant Design show the value beside their input).
 */
export function dropdownShows(this: Element, text: string): boolean {
  return showsAround(this, normalize(text));
}

function showsAround(control: Element, wanted: string): boolean {
  for (let depth = 0, candidate: Element | null = control; candidate !== null && depth <= SHOWN_DEPTH; depth++) {
    const others = Array.from(candidate.querySelectorAll(CONTROLS)).filter(
      (other) => other !== control && !control.contains(other),
    );
    if (others.length > 0) {
      return false;
    }
    if (shownText(candidate).includes(wanted)) {
      return true;
    }
    candidate = composedParent(candidate);
  }
  return false;
}

/** The popup the element opened is gone and the element itself takes the pointer again. */
export function dropdownSettled(this: Element): boolean {
  const { list } = ariaListOf(this);
  if (list !== null && list !== this && list.checkVisibility({ visibilityProperty: true })) {
    return false;
  }
  const box = this.getBoundingClientRect();
  if (box.width === 0 || box.height === 0) {
    return true;
  }
  const hit = this.ownerDocument.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
  return hit === null || hit === this || this.contains(hit) || hit.contains(this);
}

/**
 * Sets a native multi-select to exactly the options named (by text or value): each option's selected
 * through the native setter, then one input and one change as a user's pick fires; then checks, a task
 * later, that the page kept that set.
 */
export async function selectNativeExact(this: Element, values: string[]): Promise<NativeExactOutcome> {
  const select = nativeSelectOf(this);
  if (select === null || !select.multiple) {
    return { kind: 'not-multiple' };
  }
  const options = nativeOptions(select);
  const wanted = new Set<number>();
  const missing: string[] = [];
  for (const value of values) {
    const option = options.find((candidate) => matches(candidate, value));
    if (option === undefined) {
      missing.push(value);
    } else {
      wanted.add(option.index);
    }
  }
  if (missing.length > 0) {
    return { kind: 'no-match', missing, options };
  }
  const changing = options.filter((option) => option.selected !== wanted.has(option.index));
  const disabled = changing.find((option) => option.disabled);
  if (disabled !== undefined) {
    return { kind: 'disabled', option: disabled };
  }
  select.focus({ preventScroll: true });
  for (const option of changing) {
    const element = select.options[option.index];
    if (element !== undefined) {
      setNative(element, HTMLOptionElement.prototype, 'selected', wanted.has(option.index));
    }
  }
  select.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  select.dispatchEvent(new Event('change', { bubbles: true }));
  await nextTask();
  const now = nativeOptions(select);
  if (now.some((option) => option.selected !== wanted.has(option.index))) {
    return { kind: 'reverted', now: now.filter((option) => option.selected).map((option) => option.text) };
  }
  return { kind: 'selected', options: now.filter((option) => option.selected) };
}
