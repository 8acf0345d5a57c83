/**
 * Light-DOM content slotted into an element of a shadow tree. A hit test from the shadow root answers
 * the host for slotted text (the text's parent is the host, outside the shadow tree), and the light
 * element itself for a slotted element: neither is inside the shadow tree's element by `contains`, yet
 * a click there lands on it (a design-system link whose text is a `<slot>`).
 */

const TEXT_NODE = 3;

function within(x: number, y: number, rect: DOMRect): boolean {
  return x >= rect.left && x <= rect.right && y >= rect.top && y <= rect.bottom;
}

/** Whether `hit`, answered by a hit test at (x, y), is light-DOM content shown through a slot inside `element`. */
export function slottedInto(element: Element, hit: Element, x: number, y: number): boolean {
  for (let node: Element | null = hit; node !== null; node = node.parentElement) {
    const slot = node.assignedSlot;
    if (slot !== null) {
      return element.contains(slot);
    }
  }
  if (hit.shadowRoot === null) {
    return false;
  }
  for (const child of Array.from(hit.childNodes)) {
    const slot = child.nodeType === TEXT_NODE ? (child as Text).assignedSlot : null;
    if (slot === null || !element.contains(slot)) {
      continue;
    }
    const range = hit.ownerDocument.createRange();
    range.selectNodeContents(child);
    if (Array.from(range.getClientRects()).some((rect) => within(x, y, rect))) {
      return true;
    }
  }
  return false;
}

/** An element's text as it renders: a `<slot>` stands for the light-DOM nodes assigned to it (or its fallback). */
export function renderedTextContent(element: Element): string {
  if (element.querySelector('slot') === null) {
    return element.textContent ?? '';
  }
  let text = '';
  const visit = (node: Node): void => {
    if (node.nodeType === TEXT_NODE) {
      text += node.nodeValue ?? '';
      return;
    }
    const assigned = (node as Element).localName === 'slot' ? (node as HTMLSlotElement).assignedNodes() : [];
    for (const child of assigned.length > 0 ? assigned : Array.from(node.childNodes)) {
      visit(child);
    }
  };
  visit(element);
  return text;
}
