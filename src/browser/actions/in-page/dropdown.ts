/**
 * Dropdowns: native <select> (read and set the way a framework sees a user's pick), ARIA listboxes and
 * menus (read; the core clicks the option with a trusted click), found on the element itself, its label,
 * what it controls or owns, inside it, or (a list opened in a portal) a shown list labelled by it.
 */
import type { DropdownInfo, DropdownOption, NativeSelectOutcome } from '../in-page-api';
import { isLabel, isSelect } from '../../../dom/in-page/realm';
import { describeElement, nextTask, setNative } from './describe';

const SEARCH_DEPTH = 4;
const OPTION_ROLES = '[role=option], [role=menuitem], [role=menuitemradio], [role=menuitemcheckbox]';

function normalize(text: string): string {
  return text.replace(/\s+/g, ' ').trim().toLowerCase();
}

function visible(element: Element): boolean {
  return element.checkVisibility({ visibilityProperty: true, opacityProperty: false });
}

/** A descendant within `depth` levels that matches. */
function within(element: Element, depth: number, match: (candidate: Element) => boolean): Element | null {
  if (match(element)) {
    return element;
  }
  if (depth === 0) {
    return null;
  }
  for (const child of Array.from(element.children)) {
    const found = within(child, depth - 1, match);
    if (found !== null) {
      return found;
    }
  }
  return null;
}

export function nativeSelectOf(element: Element): HTMLSelectElement | null {
  // Realm-safe checks: an element of a same-origin iframe is not an instance of this frame's classes.
  if (isLabel(element) && isSelect(element.control)) {
    return element.control;
  }
  return within(element, SEARCH_DEPTH, (candidate) => isSelect(candidate)) as HTMLSelectElement | null;
}

function byIdList(element: Element, attribute: string): Element | null {
  const ids = (element.getAttribute(attribute) ?? '').split(/\s+/).filter((id) => id !== '');
  const root = element.getRootNode() as Document | ShadowRoot;
  for (const id of ids) {
    const found = root.getElementById(id);
    if (found !== null) {
      return found;
    }
  }
  return null;
}

export function isPopupRole(element: Element): boolean {
  const role = element.getAttribute('role');
  return role === 'listbox' || role === 'menu';
}

function idsOf(element: Element, attribute: string): string[] {
  return (element.getAttribute(attribute) ?? '').split(/\s+/).filter((id) => id !== '');
}

/**
 * A shown listbox or menu (one a portal put at the end of the body, say) labelled by the element or by
 * what labels it: Material UI's Select names its popup list with the label they share, and sets
 * aria-controls only in some versions.
 */
function labelledList(element: Element): Element | null {
  const names = new Set([...(element.id === '' ? [] : [element.id]), ...idsOf(element, 'aria-labelledby')]);
  if (names.size === 0) {
    return null;
  }
  const root = element.getRootNode() as Document | ShadowRoot;
  for (const list of Array.from(root.querySelectorAll('[role=listbox], [role=menu]'))) {
    if (list !== element && idsOf(list, 'aria-labelledby').some((id) => names.has(id)) && visible(list)) {
      return list;
    }
  }
  return null;
}

/** The listbox or menu the element is, controls, owns or contains; and whether it opens one. */
export function ariaListOf(element: Element): { list: Element | null; opener: boolean } {
  if (isPopupRole(element)) {
    return { list: element, opener: false };
  }
  const opener =
    element.getAttribute('role') === 'combobox' ||
    (element.hasAttribute('aria-haspopup') && element.getAttribute('aria-haspopup') !== 'false');
  const controlled = byIdList(element, 'aria-controls') ?? byIdList(element, 'aria-owns');
  if (controlled !== null) {
    const list = isPopupRole(controlled) ? controlled : controlled.querySelector('[role=listbox], [role=menu]');
    if (list !== null) {
      return { list, opener };
    }
  }
  const inside = within(element, SEARCH_DEPTH, (candidate) => candidate !== element && isPopupRole(candidate));
  return { list: inside ?? (opener ? labelledList(element) : null), opener };
}

export function ariaItems(list: Element): Element[] {
  return Array.from(list.querySelectorAll(OPTION_ROLES));
}

export function ariaOptionData(item: Element, index: number): DropdownOption {
  const text = (item.getAttribute('aria-label') ?? (item as HTMLElement).innerText ?? item.textContent ?? '').trim();
  return {
    index,
    text: text.replace(/\s+/g, ' '),
    value: item.getAttribute('data-value') ?? item.getAttribute('value') ?? (item.id !== '' ? item.id : text),
    selected: item.getAttribute('aria-selected') === 'true' || item.getAttribute('aria-checked') === 'true',
    disabled: item.getAttribute('aria-disabled') === 'true',
  };
}

export function nativeOptions(select: HTMLSelectElement): DropdownOption[] {
  return Array.from(select.options, (option, index) => ({
    index,
    text: option.text.replace(/\s+/g, ' ').trim(),
    value: option.value,
    selected: option.selected,
    disabled: option.disabled,
  }));
}

export function matches(option: DropdownOption, text: string): boolean {
  const wanted = normalize(text);
  return normalize(option.text) === wanted || normalize(option.value) === wanted;
}

export function dropdownInfo(this: Element): DropdownInfo {
  const element = describeElement(this);
  const select = nativeSelectOf(this);
  if (select !== null) {
    return { kind: 'select', multiple: select.multiple, options: nativeOptions(select), element };
  }
  const { list, opener } = ariaListOf(this);
  if (list !== null && visible(list)) {
    const items = ariaItems(list);
    if (items.length > 0 || !opener) {
      const kind = list.getAttribute('role') === 'menu' ? 'menu' : 'listbox';
      const box = list.getBoundingClientRect();
      return {
        kind,
        options: items.map(ariaOptionData),
        element,
        multiple: list.getAttribute('aria-multiselectable') === 'true',
        // A list of no size exists for assistive technology only (Ant Design's virtual list keeps the
        // active option and its neighbours there): its options cannot be clicked, only reached by keys.
        keyboard: box.width === 0 || box.height === 0,
      };
    }
  }
  return opener ? { kind: 'collapsed', element } : { kind: 'none', element };
}

/**
 * Picks an option of a native select: selectedIndex through the prototype's native setter, then input
 * and change as a user's pick fires; then checks, a task later, that the page kept it.
 */
export async function selectNative(this: Element, text: string): Promise<NativeSelectOutcome> {
  const select = nativeSelectOf(this);
  if (select === null) {
    return { kind: 'no-match', options: [] };
  }
  const options = nativeOptions(select);
  const option = options.find((candidate) => matches(candidate, text));
  if (option === undefined) {
    return { kind: 'no-match', options };
  }
  if (option.disabled) {
    return { kind: 'disabled', option };
  }
  select.focus({ preventScroll: true });
  const chosen = select.options[option.index];
  if (select.multiple && chosen !== undefined) {
    setNative(chosen, HTMLOptionElement.prototype, 'selected', true);
  } else {
    setNative(select, HTMLSelectElement.prototype, 'selectedIndex', option.index);
  }
  select.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  select.dispatchEvent(new Event('change', { bubbles: true }));
  await nextTask();
  const now = select.options[option.index];
  if (now === undefined || !now.selected) {
    return { kind: 'reverted', option, now: select.selectedOptions[0]?.text.trim() ?? '' };
  }
  return { kind: 'selected', option: { ...option, selected: true } };
}

/** The ARIA option to click, by its text or value; null when there is none (the core lists the options). */
export function ariaOption(this: Element, text: string): Element | null {
  const { list } = ariaListOf(this);
  if (list === null) {
    return null;
  }
  const items = ariaItems(list);
  const index = items.map(ariaOptionData).findIndex((option) => matches(option, text));
  return index < 0 ? null : (items[index] ?? null);
}
