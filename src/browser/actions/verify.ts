import { errorMessageOf, isTabpilotError } from '../../shared/errors';
import { withTimeout } from '../../shared/time';
import type { ElementHandle, RoutineContext } from './element';
import { callInFrame, callOn } from './in-page-call';
import { pageHidden, renderFrame } from './mouse';

/**
 * Verified pointer input: a guard armed in the element's document when its point was found (see
 * in-page/guard.ts) says, after the gesture, whether the element received it: one round trip.
 */

export type Delivery =
  | { kind: 'reached' }
  /** The first event hit something else (`hit`), or arrived nowhere the guard saw (`hit` null). */
  | { kind: 'missed'; hit: string | null };

/** A hidden page's forced frame is not waited for longer than this (after input it can stall). */
const FORCED_FRAME_MS = 1000;

/** The gesture's verdict, read from the guard armed on the element (which it disarms). */
export async function deliveryOf(ctx: RoutineContext, handle: ElementHandle): Promise<Delivery> {
  let verdict;
  try {
    verdict = await callOn(handle.session, handle.objectId, 'guardVerdict');
  } catch (error) {
    if (isTabpilotError(error) && error.code === 'ELEMENT_NOT_FOUND') {
      // The gesture navigated or replaced the document: a missed press would have been stopped first.
      ctx.log.debug('the guarded document went away after the input', { error: errorMessageOf(error) });
      return { kind: 'reached' };
    }
    throw error;
  }
  if (verdict.state !== 'none') {
    return verdict.state === 'reached' ? { kind: 'reached' } : { kind: 'missed', hit: verdict.hit };
  }
  // Nothing arrived where the guard listens. Input sent to the tab may have been routed into an
  // out-of-process frame at that point; with none in the tab it reached this document, where a page
  // listener ahead of the guard's stopped it: the page had it.
  const remoteFrames =
    handle.session === handle.pageSession &&
    ctx.targets.childrenOf(handle.targetId).some((child) => child.type === 'iframe');
  return remoteFrames ? { kind: 'missed', hit: null } : { kind: 'reached' };
}

/**
 * Waits until the element's frame and the tab have rendered a frame since now, so what the browser
 * routes input by matches the layout. A hidden page renders none by itself: a 1 px screenshot makes it
 * render one (bounded: right after mouse input the first one can stall).
 */
export async function renderedFrame(ctx: RoutineContext, handle: ElementHandle): Promise<void> {
  if (await pageHidden(handle.pageSession)) {
    const forced = renderFrame(handle.pageSession);
    await withTimeout(forced, FORCED_FRAME_MS, () => new Error('no frame')).catch((error: unknown) => {
      ctx.log.debug('a hidden page rendered no frame in time', { error: errorMessageOf(error) });
    });
    return;
  }
  await callOn(handle.session, handle.objectId, 'renderedFrame');
  if (handle.session !== handle.pageSession) {
    await callInFrame(handle.pageSession, 'renderedFrame');
  }
}

/** How a message names what a missed gesture hit. */
export function missDescription(delivery: Extract<Delivery, { kind: 'missed' }>): string {
  return delivery.hit === null ? 'another frame' : delivery.hit;
}
