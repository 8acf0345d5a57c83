/** Small questions the actor API and the key routines ask of an element or a page. */
import type { ElementInfo, FocusInfo } from '../in-page-api';
import { isFrameElement } from '../../../dom/in-page/realm';
import { deepActiveElement, describeElement } from './describe';

export function elementInfo(this: Element): ElementInfo {
  const rect = this.getBoundingClientRect();
  const attributes: Record<string, string> = {};
  for (const attribute of Array.from(this.attributes)) {
    attributes[attribute.name] = attribute.value;
  }
  return {
    tag: this.localName,
    attributes,
    box:
      rect.width === 0 && rect.height === 0 ? null : { x: rect.x, y: rect.y, width: rect.width, height: rect.height },
    text: (this.textContent ?? '').replace(/\s+/g, ' ').trim(),
  };
}

/** The browser's own platform (Cmd or Ctrl for shortcuts), whatever machine tabpilot runs on. */
export function platform(): string {
  return navigator.platform;
}

/** Elements matching a selector (the actor's query); an invalid selector throws SyntaxError with its reason. */
export function querySelectorAll(selector: string): Element[] {
  return Array.from(document.querySelectorAll(selector));
}

export function focusInfo(): FocusInfo {
  const active = deepActiveElement(document);
  return {
    url: document.location.href,
    in_frame: isFrameElement(active),
    element: active === null || active === document.body ? null : describeElement(active),
  };
}

/**
 * Where the form of the focused field sends (its `action`, resolved; the document's URL when it names
 * none), or null when the focused element is in no form. Descends into open shadow roots, where
 * activeElement is the host.
 */
export function focusedFormAction(): string | null {
  const active = deepActiveElement(document);
  const form = active !== null && 'form' in active ? active.form : null;
  if (!(form instanceof HTMLFormElement)) {
    return null;
  }
  return form.action !== '' ? form.action : document.URL;
}
