import type { CdpSession } from '../../cdp/session';
import { TabpilotError } from '../../shared/errors';
import type { ElementHandle, RoutineContext } from './element';
import { toTabPoint } from './frame-offset';
import type { ElementRef } from '../../dom/element-handle';
import type { GuardKind, PointerOptions, PointerTarget } from './in-page-api';
import { callInContext, callOn } from './in-page-call';

/** Where a pointer lands on an element in the tab's viewport, or that only a script can reach it. */
export type Located =
  | {
      kind: 'point';
      /** The point in the tab's viewport. */
      x: number;
      y: number;
      element: string;
      checked: boolean | null;
      /** The page is hidden: it renders no frame by itself, so a move must make it render one. */
      hidden: boolean;
      /** Where the input goes: the element's frame session and the point in that frame's viewport. */
      input: PointerInput;
    }
  | { kind: 'script'; element: string; checked: boolean | null; reason: 'zero-size' | 'outside-viewport' };

/**
 * Input for an element inside an out-of-process frame is sent to that frame's own session, in its own
 * coordinates: the browser then hands it to that frame directly. Sent to the tab, it would be routed by
 * what the browser last saw rendered, and a frame that has not rendered since it loaded or moved (a busy
 * machine, a hidden tab) is not there yet: the press lands on the iframe element of the embedding page.
 */
export interface PointerInput {
  session: CdpSession;
  x: number;
  y: number;
}

export interface LocateOptions {
  /** Scroll the element into view first. */
  scroll: boolean;
  /** Refuse file inputs and selects (what a click cannot operate). */
  refuse: boolean;
  /** Whether an element with no box may be reached by script (clicks), or is an error (hover, drag). */
  allowScript: boolean;
  /** Arm a guard for the input about to be sent (null: only locate, as for a drop point). */
  guard: GuardKind | null;
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
  // An element that a transition is moving (a menu growing open) is aimed at once it stands still.
  const target = await callOn(handle.session, handle.objectId, 'pointerTarget', pointerOptions(options));
  return locatedFrom(ctx, handle, target, options);
}

export function pointerOptions(options: LocateOptions): PointerOptions {
  return { scroll: options.scroll, refuse: options.refuse, guard: options.guard };
}

/**
 * The first look at an indexed element, sent with the request for its handle (DomService.resolveWith):
 * pointerTarget by the element's id. Undefined where it cannot be done so (an element in an
 * out-of-process frame is scrolled into place by the browser first), null when the element is gone.
 */
export function firstLook(ref: ElementRef, options: LocateOptions): Promise<PointerTarget | null | undefined> {
  if (ref.session !== ref.pageSession) {
    return Promise.resolve(undefined);
  }
  return callInContext(ref.session, ref.contextId, 'pointerTargetOf', ref.localId, pointerOptions(options));
}

/** Where to aim, from what a look at the element (pointerTarget) found. */
export async function locatedFrom(
  ctx: RoutineContext,
  handle: ElementHandle,
  target: PointerTarget,
  options: LocateOptions,
): Promise<Located> {
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
        { details: { reason: 'no_box' } },
      );
    case 'point': {
      const point = await toTabPoint(ctx, handle, target.element, target);
      const input = { session: handle.session, x: target.x, y: target.y };
      return {
        kind: 'point',
        x: point.x,
        y: point.y,
        element: target.element,
        checked: target.checked,
        hidden: target.hidden,
        input,
      };
    }
  }
}
