/**
 * What is under a point, and whether it is the element a pointer action meant: the one test both the
 * pointer's landing (pointer.ts) and the click guard (guard.ts) make. Its own module so that pointer.ts,
 * which arms the guard, and guard.ts, which tests hits, do not import each other.
 */
import { isDocument, isShadowRoot } from '../../../dom/in-page/realm';
import { slottedInto } from '../../../dom/in-page/slotted';

/**
 * Whether a hit at the pointer would operate `element`: itself, inside it, or its label; with the point,
 * also light-DOM content slotted into it.
 */
export function reaches(element: Element, hit: Element | null, point?: { x: number; y: number }): boolean {
  if (hit === null) {
    return false;
  }
  if (hit === element || element.contains(hit) || hit.contains(element)) {
    return true;
  }
  if (point !== undefined && slottedInto(element, hit, point.x, point.y)) {
    return true;
  }
  const label = hit.closest('label');
  if (label !== null && label.control === element) {
    return true;
  }
  // By tag, not instanceof: the element may belong to another frame's document (another set of classes).
  const control = element.localName === 'label' ? (element as HTMLLabelElement).control : null;
  return control !== null && control === hit;
}

/** The element at (x, y) in `element`'s own tree: its shadow root's, else its document's. */
export function hitTest(element: Element, x: number, y: number): Element | null {
  const root = element.getRootNode();
  const scope = isShadowRoot(root) || isDocument(root) ? root : element.ownerDocument;
  return scope.elementFromPoint(x, y);
}
