/**
 * Records the click an element gets next, to read whether the page prevented its default once the page's
 * listeners ran. Listens in the capture phase at the element's window, the first stop of every click:
 * only a page listener there before it, stopping the event at once, could keep it from being seen.
 */
export interface ClickRecord {
  /** The element's click since recording began (undefined: none seen). */
  readonly click: () => Event | undefined;
  /** Stops recording. */
  readonly stop: () => void;
}

export function recordClick(element: Element): ClickRecord {
  const view = element.ownerDocument.defaultView ?? window;
  let click: Event | undefined;
  const keep = (event: Event): void => {
    // A click inside the element (a link's image) is the element's click too; so is one at a shadow host.
    if (event.type === 'click' && event.composedPath().includes(element)) {
      click ??= event;
    }
  };
  view.addEventListener('click', keep, { capture: true });
  return {
    click: () => click,
    stop: () => view.removeEventListener('click', keep, { capture: true }),
  };
}
