/** Short descriptions of elements for messages: `<div#cookie-banner.modal> "We use cookies"`. */
import { isHtmlElement, isShadowRoot } from '../../../dom/in-page/realm';

const MAX_TEXT = 40;

function shortText(element: Element): string {
  const label = element.getAttribute('aria-label') ?? element.getAttribute('title') ?? '';
  const raw = label !== '' ? label : isHtmlElement(element) ? element.innerText : (element.textContent ?? '');
  const flat = raw.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_TEXT ? `${flat.slice(0, MAX_TEXT)}…` : flat;
}

export function describeElement(element: Element): string {
  const id = element.id === '' ? '' : `#${element.id}`;
  const classes = Array.from(element.classList)
    .slice(0, 3)
    .map((name) => `.${name}`)
    .join('');
  const text = shortText(element);
  return `<${element.localName}${id}${classes}>${text === '' ? '' : ` "${text}"`}`;
}

/** The element's parent, stepping out of a shadow root to its host. */
export function composedParent(element: Element): Element | null {
  if (element.parentElement !== null) {
    return element.parentElement;
  }
  const root = element.getRootNode();
  return isShadowRoot(root) ? root.host : null;
}

/** The focused element of a document, looking into shadow roots. */
export function deepActiveElement(doc: Document): Element | null {
  let active = doc.activeElement;
  while (active?.shadowRoot?.activeElement) {
    active = active.shadowRoot.activeElement;
  }
  return active;
}

/** Yields a macrotask without timers (hidden tabs throttle timers to one a second). */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(0);
  });
}

/**
 * Sets a property through the prototype's native accessor: a framework's own setter on the instance (a
 * React value tracker) would record the change as its own and skip onChange; the native one does not.
 */
export function setNative(target: object, prototype: object, property: string, value: unknown): void {
  const descriptor = Object.getOwnPropertyDescriptor(prototype, property);
  // eslint-disable-next-line @typescript-eslint/unbound-method -- a native accessor, called with an explicit receiver
  const setter = descriptor?.set;
  if (setter === undefined) {
    throw new Error(`no native ${property} setter`);
  }
  Reflect.apply(setter, target, [value]);
}
