/**
 * Roles, interactivity and accessible names, computed from the DOM alone (no AX tree: 6.9 s on a big
 * page). The name follows the accessible-name order closely enough for a model (aria-labelledby,
 * aria-label, associated label, alt, content, title, placeholder) and never reads `element.labels`,
 * whose live NodeList rescans the whole document on first use and after every change.
 */
import { renderedTextContent } from './slotted';

const INTERACTIVE_ROLES = new Set([
  'button',
  'link',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'option',
  'radio',
  'checkbox',
  'tab',
  'textbox',
  'combobox',
  'slider',
  'spinbutton',
  'searchbox',
  'switch',
  'listbox',
  'treeitem',
  'gridcell',
]);

const INPUT_ROLES: Record<string, string> = {
  button: 'button',
  submit: 'button',
  reset: 'button',
  image: 'button',
  checkbox: 'checkbox',
  radio: 'radio',
  range: 'slider',
  number: 'spinbutton',
  search: 'searchbox',
  email: 'textbox',
  tel: 'textbox',
  text: 'textbox',
  url: 'textbox',
  password: 'textbox',
  file: 'button',
  color: 'button',
  date: 'textbox',
  time: 'textbox',
  'datetime-local': 'textbox',
  month: 'textbox',
  week: 'textbox',
};

const TAG_ROLES: Record<string, string> = {
  button: 'button',
  select: 'combobox',
  textarea: 'textbox',
  summary: 'button',
  option: 'option',
  h1: 'heading',
  h2: 'heading',
  h3: 'heading',
  h4: 'heading',
  h5: 'heading',
  h6: 'heading',
  img: 'img',
  nav: 'navigation',
  main: 'main',
  form: 'form',
  dialog: 'dialog',
  table: 'table',
  ul: 'list',
  ol: 'list',
  li: 'listitem',
  iframe: 'iframe',
};

/** Roles whose name comes from their content (buttons, links...), so their text names them. */
const NAME_FROM_CONTENT = new Set([
  'button',
  'link',
  'menuitem',
  'option',
  'tab',
  'checkbox',
  'radio',
  'switch',
  'heading',
  'treeitem',
  'gridcell',
]);

export function roleOf(element: Element, tag: string): string | null {
  const explicit = element.getAttribute('role');
  if (explicit !== null && explicit.trim() !== '') {
    return explicit.trim().split(/\s+/)[0] ?? null;
  }
  if (tag === 'a') {
    return element.hasAttribute('href') ? 'link' : null;
  }
  if (tag === 'input') {
    return INPUT_ROLES[(element as HTMLInputElement).type] ?? 'textbox';
  }
  if (tag === 'select') {
    const select = element as HTMLSelectElement;
    return select.multiple || select.size > 1 ? 'listbox' : 'combobox';
  }
  return TAG_ROLES[tag] ?? null;
}

/** Disabled itself, by a disabled fieldset around it (`:disabled`), or by ARIA. */
export function isDisabled(element: Element): boolean {
  return element.matches(':disabled') || element.getAttribute('aria-disabled') === 'true';
}

/** Whether a form control is drawn where a person could click it (not 1 px clipped, hidden or far off-screen). */
function painted(control: Element): boolean {
  const rect = control.getBoundingClientRect();
  return (
    rect.width > 1 &&
    rect.height > 1 &&
    rect.right > 0 &&
    rect.bottom > 0 &&
    control.checkVisibility({ visibilityProperty: true, opacityProperty: true })
  );
}

/** A checkbox or radio input (checked by tag name: same-origin frames have other constructors). */
export function isToggle(control: Element | null): control is HTMLInputElement {
  const type = (control as HTMLInputElement | null)?.type;
  return control?.localName === 'input' && (type === 'checkbox' || type === 'radio');
}

/**
 * The checkbox or radio a label stands in for when the control itself is not painted: custom
 * checkboxes, radios and switches hide the real input (opacity 0, `hidden`, a 1 px clip, far
 * off-screen) and style the label, which is then what a person clicks.
 */
export function labelStandsInFor(label: Element): HTMLInputElement | null {
  const control = (label as HTMLLabelElement).control;
  if (!isToggle(control) || isDisabled(control)) {
    return null;
  }
  return painted(control) ? null : control;
}

/**
 * browser-use's ClickableElementDetector, reordered for speed: cheap checks first, computed style last.
 * A disabled control still counts: the collector shows it, greyed out, without an index.
 * `style` is the element's computed style when the caller has it already.
 */
export function isControl(
  element: Element,
  tag: string,
  role: string | null,
  style: CSSStyleDeclaration | null = null,
): boolean {
  if (tag === 'html' || tag === 'body') {
    return false;
  }
  switch (tag) {
    case 'a':
      return element.hasAttribute('href') || element.hasAttribute('onclick') || element.hasAttribute('tabindex');
    case 'button':
    case 'select':
    case 'textarea':
    case 'summary':
      return true;
    case 'input': {
      const input = element as HTMLInputElement;
      // A hidden checkbox or radio is reached through the label that stands in for it (`labels` only on
      // this rare path: it is slow on big pages).
      return input.type !== 'hidden' && (!isToggle(input) || painted(input) || (input.labels?.length ?? 0) === 0);
    }
    case 'label':
      // A label's control carries the index (indexing both would double-click), unless the control is
      // not painted and the label is what a person clicks.
      return labelStandsInFor(element) !== null;
    case 'option':
    case 'optgroup':
      // A select's options are reached through the select.
      return false;
    default:
      break;
  }
  if (role !== null && INTERACTIVE_ROLES.has(role)) {
    return true;
  }
  if ((element as HTMLElement).isContentEditable && !(element.parentElement?.isContentEditable ?? false)) {
    return true;
  }
  const tabindex = element.getAttribute('tabindex');
  if (tabindex !== null && Number(tabindex) >= 0) {
    return true;
  }
  if (element.hasAttribute('onclick') || element.hasAttribute('onmousedown') || element.hasAttribute('aria-haspopup')) {
    return true;
  }
  // An element the page made draggable is something to drag (a card, a sortable item) and needs an index.
  if (element.getAttribute('draggable') === 'true') {
    return true;
  }
  return hasOwnPointerCursor(element, style ?? getComputedStyle(element));
}

/** cursor:pointer set on this element, not just inherited from a parent that already counts. */
function hasOwnPointerCursor(element: Element, style: CSSStyleDeclaration): boolean {
  if (style.cursor !== 'pointer') {
    return false;
  }
  const parent = element.parentElement;
  return parent === null || getComputedStyle(parent).cursor !== 'pointer';
}

function collapse(text: string, max = 100): string {
  const value = text.replace(/\s+/g, ' ').trim();
  return value.length > max ? `${value.slice(0, max)}…` : value;
}

function byIds(element: Element, ids: string): string {
  const root = element.getRootNode() as Document | ShadowRoot;
  return ids
    .split(/\s+/)
    .map((id) => (id === '' ? '' : (root.getElementById?.(id)?.textContent ?? '')))
    .join(' ');
}

/** label[for] texts per tree scope, built once per collection (one query, not one per control). */
let labelsByScope = new WeakMap<Node, Map<string, string>>();

export function resetLabelCache(): void {
  labelsByScope = new WeakMap();
}

function labelsOf(root: Document | ShadowRoot): Map<string, string> {
  let labels = labelsByScope.get(root);
  if (labels === undefined) {
    labels = new Map();
    for (const label of root.querySelectorAll('label[for]')) {
      const target = label.getAttribute('for') ?? '';
      if (!labels.has(target)) {
        labels.set(target, labelContent(label));
      }
    }
    labelsByScope.set(root, labels);
  }
  return labels;
}

/** The text of the <label> bound to a form control: label[for=id] in its tree scope, else a wrapping label. */
function labelText(element: Element): string {
  const id = element.id;
  if (id !== '') {
    const text = labelsOf(element.getRootNode() as Document | ShadowRoot).get(id);
    if (text !== undefined) {
      return text;
    }
  }
  const wrapping = element.closest('label');
  return wrapping === null ? '' : labelContent(wrapping);
}

/** Controls whose own text is not part of a label around them (a select's every option, say). */
const EMBEDDED_CONTENT = 'select, textarea, datalist, script, style';

/** A label's text without the content of the controls inside it ("Colour", not "Colour redgreenblue"). */
function labelContent(label: Element): string {
  if (label.querySelector(EMBEDDED_CONTENT) === null) {
    return label.textContent ?? '';
  }
  let text = '';
  const walker = document.createTreeWalker(label, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (parent === null || parent.closest(EMBEDDED_CONTENT) === null) {
      text += node.nodeValue ?? '';
    }
  }
  return text;
}

export function accessibleName(element: Element, tag: string): string {
  const labelledBy = element.getAttribute('aria-labelledby');
  if (labelledBy !== null) {
    const text = collapse(byIds(element, labelledBy));
    if (text !== '') {
      return text;
    }
  }
  const ariaLabel = element.getAttribute('aria-label');
  if (ariaLabel !== null && ariaLabel.trim() !== '') {
    return collapse(ariaLabel);
  }
  if (tag === 'input' || tag === 'select' || tag === 'textarea') {
    const input = element as HTMLInputElement;
    if (input.type === 'submit' || input.type === 'button' || input.type === 'reset') {
      return collapse(input.value);
    }
    if (input.type === 'image') {
      return collapse(element.getAttribute('alt') ?? '');
    }
    const label = collapse(labelText(element));
    if (label !== '') {
      return label;
    }
  }
  if (tag === 'img') {
    return collapse(element.getAttribute('alt') ?? '');
  }
  const role = element.getAttribute('role') ?? '';
  if (NAME_FROM_CONTENT.has(role) || tag === 'button' || tag === 'a' || tag === 'summary' || tag === 'label') {
    const text = collapse(renderedTextContent(element));
    if (text !== '') {
      return text;
    }
    const image = element.querySelector('img[alt]');
    if (image !== null) {
      return collapse(image.getAttribute('alt') ?? '');
    }
  }
  return collapse(element.getAttribute('title') ?? element.getAttribute('placeholder') ?? '');
}
