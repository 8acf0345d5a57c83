/**
 * Finds visible text in a document (open shadow roots and same-origin frames included). The text is a
 * function argument compared as a string: nothing is interpolated into XPath or script (browser-use
 * builds an XPath from it, which quotes break).
 */
import { isDocument, isFrameElement } from '../../../dom/in-page/realm';

function normalize(text: string): string {
  return text.replace(/\s+/g, ' ').trim().toLowerCase();
}

function shown(element: Element): boolean {
  return element.checkVisibility({ visibilityProperty: true, opacityProperty: true });
}

/** Roots to search: the document, then every open shadow root and same-origin frame document inside it. */
function* roots(root: Document | ShadowRoot): Generator<Document | ShadowRoot> {
  yield root;
  for (const element of Array.from(root.querySelectorAll('*'))) {
    if (element.shadowRoot !== null) {
      yield* roots(element.shadowRoot);
    }
    if (isFrameElement(element)) {
      let inner: Document | null = null;
      try {
        inner = element.contentDocument;
      } catch {
        // Cross-origin: searched through its own session.
        inner = null;
      }
      if (inner !== null) {
        yield* roots(inner);
      }
    }
  }
}

/** A text node that contains the needle on its own. */
function inTextNodes(root: Document | ShadowRoot, needle: string): Element | null {
  const doc = isDocument(root) ? root : root.ownerDocument;
  const walker = doc.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (parent !== null && normalize(node.nodeValue ?? '').includes(needle) && shown(parent)) {
      return parent;
    }
  }
  return null;
}

/** The deepest visible element whose text contains the needle across its children ("Hello <b>world</b>"). */
function acrossElements(root: Document | ShadowRoot, needle: string): Element | null {
  let found: Element | null = null;
  let scope: ParentNode = root;
  for (;;) {
    const next = Array.from(scope.children).find((child) => normalize(child.textContent ?? '').includes(needle));
    if (next === undefined) {
      return found !== null && shown(found) ? found : null;
    }
    found = next;
    scope = next;
  }
}

export function findText(needle: string): Element | null {
  const wanted = normalize(needle);
  if (wanted === '') {
    return null;
  }
  for (const root of roots(document)) {
    const hit = inTextNodes(root, wanted);
    if (hit !== null) {
      return hit;
    }
  }
  for (const root of roots(document)) {
    const hit = acrossElements(root, wanted);
    if (hit !== null) {
      return hit;
    }
  }
  return null;
}
