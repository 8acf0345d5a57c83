/**
 * The in-page half of recording a flow: while a person records, their own input in this document (only
 * trusted events: what a script dispatches is not theirs) is told to the worker through a CDP binding
 * that exists in tabpilot's isolated world alone, so the page's own scripts can neither call it nor see
 * it. Each input names its element by the locator derived here (locator.ts). Capture-phase listeners on
 * the window, so a page that stops an event's propagation does not hide it. The world is new in each
 * document: the worker installs the listeners again after each navigation.
 */
import type { RecordedInput } from '../payload';
import { deriveLocator } from './locator';

/** Keys a flow keeps as `press` steps; the others are typing, which the field's value says. */
const PRESSED_KEYS = new Set(['Enter', 'Escape', 'Tab']);
/** Input types whose value is typed (a fill step), not clicked. */
const TYPED_TYPES = new Set(['', 'text', 'email', 'tel', 'url', 'search', 'password', 'number']);
const EVENTS = ['click', 'input', 'change', 'keydown'] as const;
/** A click this soon after Enter, with no pointer (detail 0), is the Enter's doing (a form's submit), not a step. */
const ENTER_CLICK_MS = 500;

interface RecorderState {
  binding: string;
  listener: (event: Event) => void;
  enterAt: number;
}

function holder(): { __tabpilotRecorder?: RecorderState } {
  return globalThis as { __tabpilotRecorder?: RecorderState };
}

/** The element an event happened on, through open shadow roots (what the person pointed at). */
function targetOf(event: Event): Element | null {
  const first = event.composedPath()[0];
  return first instanceof Element ? first : null;
}

function isTyped(element: Element): element is HTMLInputElement | HTMLTextAreaElement {
  if (element instanceof HTMLTextAreaElement) {
    return true;
  }
  return element instanceof HTMLInputElement && TYPED_TYPES.has(element.type);
}

/** A click that is the person choosing a field or opening a list, not a step: the fill or select follows. */
function clickIsNotAStep(element: Element): boolean {
  if (isTyped(element) || element instanceof HTMLSelectElement || element instanceof HTMLOptionElement) {
    return true;
  }
  if (element instanceof HTMLInputElement && element.type === 'file') {
    return true;
  }
  if (element instanceof HTMLElement && element.isContentEditable) {
    return true;
  }
  // A click on a label's text clicks its control too, and that click is the step.
  const label = element.closest('label');
  return label !== null && label.control !== null && label.control !== element;
}

/** The clicked element a flow names: the nearest link, button or control holding what was clicked. */
function clickable(element: Element): Element {
  return element.closest('a[href], button, input, select, textarea, summary, [role], label') ?? element;
}

function inputOf(event: Event, state: RecorderState): RecordedInput | null {
  const target = targetOf(event);
  if (target === null) {
    return null;
  }
  const path = location.pathname;
  if (event instanceof MouseEvent && event.type === 'click') {
    const byEnter = event.detail === 0 && performance.now() - state.enterAt < ENTER_CLICK_MS;
    if (byEnter || clickIsNotAStep(target)) {
      return null;
    }
    return { kind: 'click', locator: deriveLocator(clickable(target)), path };
  }
  if (event.type === 'input' && isTyped(target)) {
    const password = target instanceof HTMLInputElement && target.type === 'password';
    return { kind: 'fill', locator: deriveLocator(target), value: target.value, password, path };
  }
  if (event.type === 'change' && target instanceof HTMLSelectElement) {
    const option = target.selectedOptions[0];
    return { kind: 'select', locator: deriveLocator(target), value: option?.text.trim() ?? '', path };
  }
  if (event.type === 'change' && target instanceof HTMLInputElement && target.type === 'file') {
    const names = Array.from(target.files ?? [], (file) => file.name);
    return names.length === 0 ? null : { kind: 'upload', locator: deriveLocator(target), files: names, path };
  }
  if (event instanceof KeyboardEvent && event.type === 'keydown' && PRESSED_KEYS.has(event.key)) {
    if (event.key === 'Enter') {
      state.enterAt = performance.now();
    }
    return { kind: 'press', key: event.key, path };
  }
  return null;
}

/**
 * Starts telling the worker the person's input through the binding `binding` (a function of this world's
 * global). Once per document: a second call changes nothing. False when the binding is missing.
 */
export function recordListen(binding: string): boolean {
  const state = holder();
  if (state.__tabpilotRecorder !== undefined) {
    return true;
  }
  const send: unknown = Reflect.get(globalThis, binding);
  if (typeof send !== 'function') {
    return false;
  }
  const recorder: RecorderState = { binding, listener: () => undefined, enterAt: -Infinity };
  recorder.listener = (event: Event): void => {
    if (!event.isTrusted) {
      return;
    }
    const input = inputOf(event, recorder);
    if (input !== null) {
      Reflect.apply(send, globalThis, [JSON.stringify(input)]);
    }
  };
  for (const type of EVENTS) {
    window.addEventListener(type, recorder.listener, { capture: true });
  }
  state.__tabpilotRecorder = recorder;
  return true;
}

/** Stops telling the worker; true when it was listening in this document. */
export function recordUnlisten(): boolean {
  const state = holder();
  const recorder = state.__tabpilotRecorder;
  if (recorder === undefined) {
    return false;
  }
  for (const type of EVENTS) {
    window.removeEventListener(type, recorder.listener, { capture: true });
  }
  delete state.__tabpilotRecorder;
  return true;
}

/** The document's path now: what the last step left the tab showing. */
export function recordPath(): string {
  return location.pathname;
}
