/**
 * Type checks that hold across frames. Every frame has its own set of DOM classes, so an element of a
 * same-origin iframe, reached from the top document, fails `instanceof HTMLInputElement` of the top
 * frame's classes: these check the tag (in the HTML namespace) or the node type instead.
 */

const HTML_NAMESPACE = 'http://www.w3.org/1999/xhtml';
const DOCUMENT_NODE = 9;
const DOCUMENT_FRAGMENT_NODE = 11;

/** An HTML element (not SVG or MathML), of any frame. */
export function isHtmlElement(node: Node | null | undefined): node is HTMLElement {
  return node !== null && node !== undefined && (node as Element).namespaceURI === HTML_NAMESPACE;
}

function hasTag(node: Node | null | undefined, tag: string): boolean {
  return isHtmlElement(node) && node.localName === tag;
}

export function isInput(node: Node | null | undefined): node is HTMLInputElement {
  return hasTag(node, 'input');
}

export function isTextArea(node: Node | null | undefined): node is HTMLTextAreaElement {
  return hasTag(node, 'textarea');
}

export function isSelect(node: Node | null | undefined): node is HTMLSelectElement {
  return hasTag(node, 'select');
}

export function isLabel(node: Node | null | undefined): node is HTMLLabelElement {
  return hasTag(node, 'label');
}

/** An `<iframe>` or a `<frame>`. */
export function isFrameElement(node: Node | null | undefined): node is HTMLIFrameElement {
  return hasTag(node, 'iframe') || hasTag(node, 'frame');
}

export function isDocument(node: Node | null | undefined): node is Document {
  return node?.nodeType === DOCUMENT_NODE;
}

export function isShadowRoot(node: Node | null | undefined): node is ShadowRoot {
  return node?.nodeType === DOCUMENT_FRAGMENT_NODE && 'host' in node;
}

/** The element's own frame's prototype of `name` (its value setter is the one its frame's framework hooks). */
export function ownPrototype(element: Element, name: 'HTMLInputElement' | 'HTMLTextAreaElement'): object {
  const view = element.ownerDocument.defaultView;
  return (view ?? globalThis)[name].prototype;
}
