import { TabpilotError } from '../../shared/errors';
import type { ElementHandle, RoutineContext } from './element';
import { toTabPoint } from './frame-offset';
import { callOn } from './in-page-call';

/** Where a pointer lands on an element in the tab's viewport, or that only a script can reach it. */
export type Located =
  | { kind: 'point'; x: number; y: number; element: string; checked: boolean | null }
  | { kind: 'script'; element: string; checked: boolean | null; reason: 'zero-size' | 'outside-viewport' };

export interface LocateOptions {
  /** Scroll the element into view first. */
  scroll: boolean;
  /** Refuse file inputs and selects (what a click cannot operate). */
  refuse: boolean;
  /** Whether an element with no box may be reached by script (clicks), or is an error (hover, drag). */
  allowScript: boolean;
}

/**
 * Finds the point to aim at: scrolls the element into view, hit-tests candidate points in its frame
 * and through its frames, and fails with ELEMENT_OCCLUDED naming the cover rather than aim anywhere else.
 */
export async function locatePointer(
  ctx: RoutineContext,
  handle: ElementHandle,
  options: LocateOptions,
): Promise<Located> {
  if (options.scroll && handle.session !== handle.pageSession) {
    // Scrolls every ancestor document into place too, across processes (in-page scrolling stops at the OOPIF).
    await handle.session.send('DOM.scrollIntoViewIfNeeded', { objectId: handle.objectId });
  }
  const target = await callOn(handle.session, handle.objectId, 'pointerTarget', {
    scroll: options.scroll,
    refuse: options.refuse,
  });
  switch (target.kind) {
    case 'refused':
      throw new TabpilotError(
        'INVALID_PARAMS',
        target.reason === 'select'
          ? `${handle.label} ${target.element} is a select: use dropdown_options and select_dropdown`
          : `${handle.label} ${target.element} is a file input: use upload_file`,
        { details: { reason: target.reason } },
      );
    case 'occluded':
      throw new TabpilotError(
        'ELEMENT_OCCLUDED',
        `${handle.label} ${target.element} is covered by ${target.cover}: the pointer would land on that instead. Dismiss or close it first.`,
        { details: { cover: target.cover, element: target.element } },
      );
    case 'no-box':
      if (options.allowScript) {
        return { kind: 'script', element: target.element, checked: target.checked, reason: target.reason };
      }
      throw new TabpilotError(
        'ELEMENT_NOT_FOUND',
        `${handle.label} ${target.element} has no visible box to point at (${target.reason.replace('-', ' ')})`,
      );
    case 'point': {
      const point = await toTabPoint(ctx, handle, target.element, target);
      return { kind: 'point', x: point.x, y: point.y, element: target.element, checked: target.checked };
    }
  }
}
