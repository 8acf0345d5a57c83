/**
 * The collector's rules for single elements, apart from its walk: which elements may hide a closed
 * shadow root, which descendants are part of a clickable parent, which ids add nothing to a line, and
 * which flat controls a sizeless clipping box hides.
 */
/** Elements that may carry a shadow root (attachShadow's allow list) besides custom elements. */
const SHADOW_CAPABLE = new Set([
  'article',
  'aside',
  'blockquote',
  'body',
  'div',
  'footer',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'main',
  'nav',
  'p',
  'section',
  'span',
]);
const FORM_FIELDS = new Set(['input', 'select', 'textarea']);

/** An element with a name is told apart by it; its id only adds characters (form fields keep theirs). */
export function withoutRedundantId(
  attributes: Array<[string, string]>,
  tag: string,
  name: string,
): Array<[string, string]> {
  return name === '' || FORM_FIELDS.has(tag) ? attributes : attributes.filter(([key]) => key !== 'id');
}

/** A descendant that is just part of a clickable parent (text, icons) gets no index of its own. */
export function containedBy(parent: DOMRect | null, rect: DOMRect, element: Element, tag: string): boolean {
  if (parent === null) {
    return false;
  }
  if (
    tag === 'input' ||
    tag === 'select' ||
    tag === 'textarea' ||
    element.hasAttribute('onclick') ||
    element.hasAttribute('aria-label')
  ) {
    return false;
  }
  const area = rect.width * rect.height;
  if (area === 0) {
    return true;
  }
  const overlapX = Math.max(0, Math.min(rect.right, parent.right) - Math.max(rect.left, parent.left));
  const overlapY = Math.max(0, Math.min(rect.bottom, parent.bottom) - Math.max(rect.top, parent.top));
  return (overlapX * overlapY) / area >= 0.99;
}

/** The page cannot see closed shadow roots; hosts that may have one are reported for CDP to open. */
export function mayHaveClosedRoot(element: Element, tag: string, rect: DOMRect): boolean {
  if (element.shadowRoot !== null) {
    return false;
  }
  if (tag.includes('-')) {
    return true;
  }
  return (
    SHADOW_CAPABLE.has(tag) &&
    element.childElementCount === 0 &&
    rect.width * rect.height > 0 &&
    (element.textContent ?? '').trim() === ''
  );
}

/** How far up a flat control's clipping box is looked for (the copies seen sit one or two levels down). */
const CLIP_LEVELS = 4;

/**
 * A control with no width or no height whose box an ancestor with no size clips away entirely: the
 * copies of options some libraries keep for assistive technology (Ant Design's Select keeps a few in a
 * 0x0 `overflow: hidden` list). Nothing of it is painted and the pointer cannot reach it, but a hit
 * test of an empty box cannot tell, so it is asked here. Only flat boxes are looked at: a cheap check.
 */
export function clippedAway(element: Element, rect: DOMRect): boolean {
  if (rect.width > 0 && rect.height > 0) {
    return false;
  }
  let ancestor = element.parentElement;
  for (let level = 0; ancestor !== null && level < CLIP_LEVELS; level++, ancestor = ancestor.parentElement) {
    const box = ancestor.getBoundingClientRect();
    if (box.width > 0 && box.height > 0) {
      continue;
    }
    const style = getComputedStyle(ancestor);
    if (style.overflowX !== 'visible' || style.overflowY !== 'visible') {
      return true;
    }
  }
  return false;
}
