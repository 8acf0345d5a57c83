/**
 * Locators: how a recorded step names its element so that a reload, a changed index or a moved element
 * does not lose it. Derived from an element in this order, the first that names it alone: its role and
 * accessible name, its label, its text, its test id, then a CSS path. Resolved back to every element that
 * matches, so the caller can refuse none or several. The rules follow what Playwright's getByRole,
 * getByLabel, getByText and getByTestId match with `exact: true`, so an exported flow finds the same
 * element (a simplified accessible name: aria-labelledby, aria-label, labels, content, alt, title).
 */
import { LOCATOR_SELECTOR_PREFIX, type PageLocator } from '../payload';

/** Longer texts make brittle locators (a paragraph changes with any word); a CSS path is used then. */
const MAX_TEXT_LOCATOR = 80;

const TEXTBOX_TYPES = new Set(['', 'text', 'email', 'tel', 'url']);
const BUTTON_TYPES = new Set(['button', 'submit', 'reset', 'image']);
/** Roles whose accessible name is their content when nothing else names them. */
const NAMED_BY_CONTENT = new Set([
  'button',
  'link',
  'heading',
  'option',
  'tab',
  'menuitem',
  'checkbox',
  'radio',
  'cell',
  'columnheader',
  'row',
  'switch',
  'treeitem',
]);

export function normalized(text: string | null | undefined): string {
  return (text ?? '').replace(/\s+/g, ' ').trim();
}

/** The element's ARIA role: its role attribute's first word, else the one its tag implies. */
export function roleOf(element: Element): string | null {
  const explicit = element.getAttribute('role')?.trim().split(/\s+/)[0];
  if (explicit !== undefined && explicit !== '') {
    return explicit;
  }
  const tag = element.localName;
  if (tag === 'a' || tag === 'area') {
    return element.hasAttribute('href') ? 'link' : null;
  }
  if (tag === 'button') {
    return 'button';
  }
  if (tag === 'textarea') {
    return 'textbox';
  }
  if (tag === 'select') {
    const select = element as HTMLSelectElement;
    return select.multiple || select.size > 1 ? 'listbox' : 'combobox';
  }
  if (/^h[1-6]$/.test(tag)) {
    return 'heading';
  }
  if (tag === 'img') {
    return element.getAttribute('alt') === '' ? 'presentation' : 'img';
  }
  if (tag === 'option') {
    return 'option';
  }
  if (tag === 'input') {
    return inputRole(element as HTMLInputElement);
  }
  return null;
}

function inputRole(input: HTMLInputElement): string | null {
  const type = (input.getAttribute('type') ?? '').toLowerCase();
  if (TEXTBOX_TYPES.has(type)) {
    return input.hasAttribute('list') ? 'combobox' : 'textbox';
  }
  if (BUTTON_TYPES.has(type)) {
    return 'button';
  }
  const roles: Record<string, string> = {
    checkbox: 'checkbox',
    radio: 'radio',
    search: 'searchbox',
    number: 'spinbutton',
    range: 'slider',
  };
  // A password field has no role in ARIA: it is found by its label.
  return roles[type] ?? null;
}

/** The text of the elements an aria-labelledby names, else null. */
function labelledBy(element: Element): string | null {
  const ids = element.getAttribute('aria-labelledby')?.trim();
  if (ids === undefined || ids === '') {
    return null;
  }
  const root = element.getRootNode() as Document | ShadowRoot;
  const parts = ids.split(/\s+/).map((id) => normalized(root.getElementById(id)?.textContent));
  const text = normalized(parts.join(' '));
  return text === '' ? null : text;
}

/** The text of the <label>s of a form control, joined. */
function labelsText(element: Element): string | null {
  const labels = (element as HTMLInputElement).labels as NodeListOf<HTMLLabelElement> | null | undefined;
  if (labels === null || labels === undefined || labels.length === 0) {
    return null;
  }
  const text = normalized(Array.from(labels, (label) => label.textContent).join(' '));
  return text === '' ? null : text;
}

/** What names the element to assistive technology (simplified; see the file's comment). */
export function accessibleName(element: Element): string {
  const byAria = labelledBy(element) ?? normalized(element.getAttribute('aria-label'));
  if (byAria !== '') {
    return byAria;
  }
  const labels = labelsText(element);
  if (labels !== null) {
    return labels;
  }
  const tag = element.localName;
  if (tag === 'input') {
    const input = element as HTMLInputElement;
    if (BUTTON_TYPES.has(input.type)) {
      return (
        normalized(input.value) || normalized(input.getAttribute('alt')) || (input.type === 'submit' ? 'Submit' : '')
      );
    }
    return normalized(input.placeholder) || normalized(input.title);
  }
  if (tag === 'textarea') {
    return normalized((element as HTMLTextAreaElement).placeholder) || normalized(element.getAttribute('title'));
  }
  if (tag === 'img') {
    return normalized(element.getAttribute('alt')) || normalized(element.getAttribute('title'));
  }
  const role = roleOf(element);
  if (role !== null && NAMED_BY_CONTENT.has(role)) {
    const content = normalized(element.textContent);
    if (content !== '') {
      return content;
    }
  }
  return normalized(element.getAttribute('title'));
}

/** A form control's label, as getByLabel reads it: aria-labelledby, aria-label, or its <label>s. */
export function labelOf(element: Element): string | null {
  const byAria = labelledBy(element) ?? normalized(element.getAttribute('aria-label'));
  return byAria !== '' ? byAria : labelsText(element);
}

/** Hidden elements are not what a person acted on, and Playwright's role and text locators skip them. */
function shown(element: Element): boolean {
  return element.checkVisibility({ visibilityProperty: true });
}

/** The element's own text, when no child element holds all of it (the smallest element showing it). */
function ownText(element: Element): string | null {
  const text = normalized(element.textContent);
  if (text === '' || ['script', 'style', 'noscript', 'template'].includes(element.localName)) {
    return null;
  }
  for (const child of Array.from(element.children)) {
    if (normalized(child.textContent) === text) {
      return null;
    }
  }
  return text;
}

/** Every element of the document and of its open shadow roots, in document order. */
function allElements(root: Document | ShadowRoot = document): Element[] {
  const out: Element[] = [];
  for (const element of Array.from(root.querySelectorAll('*'))) {
    out.push(element);
    if (element.shadowRoot !== null) {
      out.push(...allElements(element.shadowRoot));
    }
  }
  return out;
}

export function matches(element: Element, locator: PageLocator): boolean {
  if ('role' in locator) {
    return roleOf(element) === locator.role && accessibleName(element) === locator.name && shown(element);
  }
  if ('label' in locator) {
    return labelOf(element) === locator.label && shown(element);
  }
  if ('text' in locator) {
    return ownText(element) === locator.text && shown(element);
  }
  if ('test_id' in locator) {
    return element.getAttribute('data-testid') === locator.test_id;
  }
  return element.matches(locator.css);
}

/** Every element the locator names, in document order: the caller refuses none or several. */
export function locateAll(locator: PageLocator): Element[] {
  if ('css' in locator) {
    return Array.from(document.querySelectorAll(locator.css));
  }
  return allElements().filter((element) => matches(element, locator));
}

/** A CSS path from the nearest ancestor with a unique id, by tag and position among its like siblings. */
export function cssPath(element: Element): string {
  const parts: string[] = [];
  let current: Element | null = element;
  while (current !== null && current !== document.documentElement) {
    if (current.id !== '' && document.querySelectorAll(`#${CSS.escape(current.id)}`).length === 1) {
      parts.unshift(`#${CSS.escape(current.id)}`);
      return parts.join(' > ');
    }
    const tag = current.localName;
    const parent: Element | null = current.parentElement;
    const like = parent === null ? [] : Array.from(parent.children).filter((child) => child.localName === tag);
    parts.unshift(like.length > 1 ? `${tag}:nth-of-type(${like.indexOf(current) + 1})` : tag);
    current = parent;
  }
  return parts.join(' > ');
}

/** The first locator, in the documented order, that names this element and no other. */
export function deriveLocator(element: Element): PageLocator {
  const candidates: PageLocator[] = [];
  const role = roleOf(element);
  const name = accessibleName(element);
  if (role !== null && name !== '') {
    candidates.push({ role, name });
  }
  const label = labelOf(element);
  if (label !== null) {
    candidates.push({ label });
  }
  const text = ownText(element);
  if (text !== null && text.length <= MAX_TEXT_LOCATOR) {
    candidates.push({ text });
  }
  const testId = element.getAttribute('data-testid');
  if (testId !== null && testId !== '') {
    candidates.push({ test_id: testId });
  }
  for (const candidate of candidates) {
    const found = locateAll(candidate);
    if (found.length === 1 && found[0] === element) {
      return candidate;
    }
  }
  return { css: cssPath(element) };
}

function isLocator(value: unknown): value is PageLocator {
  if (typeof value !== 'object' || value === null) {
    return false;
  }
  const entries = Object.entries(value);
  const strings = entries.every(([, field]) => typeof field === 'string');
  const keys = entries
    .map(([key]) => key)
    .sort()
    .join(',');
  return strings && ['name,role', 'label', 'text', 'test_id', 'css'].includes(keys);
}

/**
 * The elements a `find_elements` selector names: a locator after LOCATOR_SELECTOR_PREFIX (its JSON),
 * else a CSS selector. A malformed locator throws, which the core reports as bad input.
 */
export function selectAll(selector: string): Element[] {
  if (!selector.startsWith(LOCATOR_SELECTOR_PREFIX)) {
    return Array.from(document.querySelectorAll(selector));
  }
  let locator: unknown;
  try {
    locator = JSON.parse(selector.slice(LOCATOR_SELECTOR_PREFIX.length));
  } catch {
    throw new Error(`a locator selector is ${LOCATOR_SELECTOR_PREFIX} and its JSON, which this is not`);
  }
  if (!isLocator(locator)) {
    throw new Error('a locator is one of {role, name}, {label}, {text}, {test_id}, {css}, each a string');
  }
  return locateAll(locator);
}
