/**
 * The in-page half of typing: find the editable element, focus it and select what the typed text
 * replaces (the core then sends one trusted Input.insertText, or real key events), set the value of
 * inputs that take no typing (date, time, colour, range), and read the result back.
 */
import type { ReadBackOptions, TypingOptions, TypingPlan, ValueCheck } from '../in-page-api';
import { isHtmlElement, isInput, isLabel, isSelect, isTextArea, ownPrototype } from '../../../dom/in-page/realm';
import { deepActiveElement, describeElement, nextTask, setNative } from './describe';

/** Input types that take typed text; the rest of the text-like ones are set as values. */
const TYPED = new Set(['text', 'search', 'url', 'tel', 'email', 'password', 'number']);
/** Typed types whose caret cannot be placed (no selection API): appending sets the value instead. */
const NO_CARET = new Set(['email', 'number']);
const SET_AS_VALUE = new Set(['date', 'time', 'datetime-local', 'month', 'week', 'color', 'range']);
const CHECKABLE = new Set(['checkbox', 'radio']);
const BUTTONS = new Set(['button', 'submit', 'reset', 'image', 'hidden']);
const DATE_PICKER_CLASS = /(^|\s)(datepicker|daterangepicker|datetimepicker|bootstrap-datepicker)(\s|$)/i;
const DATE_PICKER_ATTRIBUTES = ['data-datepicker', 'data-date-format', 'data-provide'];
const EDITABLE_SELECTOR =
  'input:not([type=hidden]):not([type=button]):not([type=submit]):not([type=checkbox]):not([type=radio]), textarea, [contenteditable]:not([contenteditable=false])';

type Field = HTMLInputElement | HTMLTextAreaElement;

function isEditableRoot(element: Element): boolean {
  return isHtmlElement(element) && element.isContentEditable && !(element.parentElement?.isContentEditable ?? false);
}

/** The element that takes the text: the element itself, the control of a label, or an editable inside it. */
export function editableOf(element: Element): Element {
  if (isInput(element) || isTextArea(element)) {
    return element;
  }
  if (isHtmlElement(element) && element.isContentEditable) {
    // Type into the editing host, not into a leaf inside it.
    let host: HTMLElement = element;
    while (host.parentElement?.isContentEditable) {
      host = host.parentElement;
    }
    return host;
  }
  if (isLabel(element) && element.control !== null) {
    return element.control;
  }
  const inside = element.querySelector(EDITABLE_SELECTOR) ?? element.shadowRoot?.querySelector(EDITABLE_SELECTOR);
  return inside ?? element;
}

function isDatePicker(input: HTMLInputElement): boolean {
  return DATE_PICKER_CLASS.test(input.className) || DATE_PICKER_ATTRIBUTES.some((name) => input.hasAttribute(name));
}

function refusal(element: Element): TypingPlan | undefined {
  const description = describeElement(element);
  if (isSelect(element)) {
    return { kind: 'refused', reason: 'select', element: description };
  }
  if (isInput(element)) {
    if (element.type === 'file') {
      return { kind: 'refused', reason: 'file-input', element: description };
    }
    if (CHECKABLE.has(element.type)) {
      return { kind: 'refused', reason: 'checkable', element: description };
    }
    if (BUTTONS.has(element.type)) {
      return { kind: 'refused', reason: 'not-editable', element: description };
    }
  }
  if (!(isInput(element) || isTextArea(element) || isEditableRoot(element))) {
    return { kind: 'refused', reason: 'not-editable', element: description };
  }
  if ((element as Partial<Field>).disabled === true) {
    return { kind: 'refused', reason: 'disabled', element: description };
  }
  if ((element as Partial<Field>).readOnly === true) {
    return { kind: 'refused', reason: 'read-only', element: description };
  }
  return undefined;
}

function selectContents(element: HTMLElement, clear: boolean): void {
  const selection = element.ownerDocument.getSelection();
  if (selection === null) {
    return;
  }
  const range = element.ownerDocument.createRange();
  range.selectNodeContents(element);
  if (!clear) {
    range.collapse(false);
  }
  selection.removeAllRanges();
  selection.addRange(range);
}

export function prepareTyping(this: Element, options: TypingOptions): TypingPlan {
  const element = editableOf(this);
  const refused = refusal(element);
  if (refused !== undefined) {
    return refused;
  }
  const url = element.ownerDocument.location.href;
  const description = describeElement(element);
  const secret = isInput(element) && element.type === 'password';
  if (isInput(element)) {
    const type = element.type;
    const asValue = SET_AS_VALUE.has(type) || isDatePicker(element) || !TYPED.has(type);
    if (asValue || (!options.clear && NO_CARET.has(type))) {
      return { kind: 'value', input_type: type, url, secret, element: description };
    }
  }
  const html = element as HTMLElement;
  const rect = html.getBoundingClientRect();
  const view = element.ownerDocument.defaultView;
  if (
    view !== null &&
    (rect.bottom < 0 || rect.top > view.innerHeight || rect.right < 0 || rect.left > view.innerWidth)
  ) {
    html.scrollIntoView({ block: 'center', inline: 'nearest', behavior: 'instant' });
  }
  html.focus({ preventScroll: true });
  if (isInput(element) || isTextArea(element)) {
    if (options.clear) {
      element.select();
    } else {
      const end = element.value.length;
      element.setSelectionRange(end, end);
    }
  } else {
    selectContents(html, options.clear);
  }
  return {
    kind: 'text',
    field: isInput(element) ? 'input' : isTextArea(element) ? 'textarea' : 'contenteditable',
    focused: deepActiveElement(element.ownerDocument) === element,
    url,
    secret,
    element: description,
  };
}

/**
 * Sets the value the way a framework sees a user's change: through the prototype's native setter (a
 * framework's own instance setter would record it as its own and skip onChange), then input and change.
 */
export function setValue(this: Element, value: string, append: boolean): boolean {
  const element = editableOf(this);
  if (isInput(element) || isTextArea(element)) {
    const prototype = ownPrototype(element, isTextArea(element) ? 'HTMLTextAreaElement' : 'HTMLInputElement');
    setNative(element, prototype, 'value', append ? element.value + value : value);
  } else if (isHtmlElement(element)) {
    element.textContent = append ? `${element.textContent ?? ''}${value}` : value;
  } else {
    return false;
  }
  element.dispatchEvent(
    new InputEvent('input', { bubbles: true, composed: true, inputType: 'insertReplacementText', data: value }),
  );
  element.dispatchEvent(new Event('change', { bubbles: true }));
  return true;
}

function currentValue(element: Element): string {
  if (isInput(element) || isTextArea(element)) {
    return element.value;
  }
  const text = isHtmlElement(element) ? element.innerText : (element.textContent ?? '');
  return text.replace(/\u00a0/g, ' ').replace(/\n$/, '');
}

function sameValue(element: Element, actual: string, expected: string): boolean {
  if (isInput(element)) {
    if (element.type === 'color') {
      return actual.toLowerCase() === expected.toLowerCase();
    }
    if (element.type === 'range' || element.type === 'number') {
      return expected.trim() !== '' && Number(actual) === Number(expected);
    }
  }
  return actual === expected;
}

/**
 * Reads the value after the page had a task to react (a framework re-rendering from its state), and
 * compares it with what was typed. With `hide` the value never leaves the page.
 */
export async function readBack(this: Element, expected: string, options: ReadBackOptions): Promise<ValueCheck> {
  await nextTask();
  const element = editableOf(this);
  const actual = currentValue(element);
  const matches = options.clear ? sameValue(element, actual, expected) : actual.endsWith(expected);
  return { matches, actual: options.hide ? null : actual };
}
