import { errorMessageOf, isTabpilotError, TabpilotError } from '../../shared/errors';
import { withTimeout } from '../../shared/time';
import type { ElementHandle, RoutineContext } from './element';
import type { GuardKind } from './in-page-api';
import { callInFrame, callOn } from './in-page-call';
import { unlessDialogOpened } from './input-dialog';
import type { Located } from './locate';
import { pageHidden, renderFrame } from './mouse';

/**
 * Verified pointer input: a guard armed in the element's document when its point was found (see
 * in-page/guard.ts) says, after the gesture, whether the element received it: one round trip.
 */

export type Delivery =
  /** `prevented`: the page called preventDefault on the click it caused (a link then stays put). */
  | { kind: 'reached'; prevented: boolean }
  /** The first event hit something else (`hit`), or arrived nowhere the guard saw (`hit` null). */
  | { kind: 'missed'; hit: string | null };

/** Reached, with no click the page prevented: what a gesture is taken as when the guard cannot say otherwise. */
const REACHED: Delivery = { kind: 'reached', prevented: false };

/** A hidden page's forced frame is not waited for longer than this (after input it can stall). */
const FORCED_FRAME_MS = 1000;

/**
 * The gesture's verdict, read from the guard armed on the element (which it disarms). `releases`: asked
 * for while the input is still on its way, the guard first waits for that many button releases.
 */
export async function deliveryOf(
  ctx: RoutineContext,
  handle: ElementHandle,
  kind: GuardKind,
  releases = 0,
): Promise<Delivery> {
  let verdict;
  try {
    verdict = await callOn(handle.session, handle.objectId, 'guardVerdict', releases);
  } catch (error) {
    if (isTabpilotError(error) && error.code === 'ELEMENT_NOT_FOUND') {
      // The gesture navigated or replaced the document: a missed press would have been stopped first.
      ctx.log.debug('the guarded document went away after the input', { error: errorMessageOf(error) });
      return REACHED;
    }
    throw error;
  }
  if (verdict.state !== 'none') {
    return verdict.state === 'reached'
      ? { kind: 'reached', prevented: verdict.prevented }
      : { kind: 'missed', hit: verdict.hit };
  }
  if (kind === 'move') {
    // A move to where the pointer already is sends no events: the element being hovered says it arrived.
    return (await callOn(handle.session, handle.objectId, 'isHovered')) ? REACHED : { kind: 'missed', hit: null };
  }
  // Nothing arrived where the guard listens. Input sent to the tab may have been routed into an
  // out-of-process frame at that point; with none in the tab it reached this document, where a page
  // listener ahead of the guard's stopped it: the page had it.
  const remoteFrames =
    handle.session === handle.pageSession &&
    ctx.targets.childrenOf(handle.targetId).some((child) => child.type === 'iframe');
  return remoteFrames ? { kind: 'missed', hit: null } : REACHED;
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

export type Gesture = 'click' | 'hover';

const GUARD_OF: Record<Gesture, GuardKind> = { click: 'press', hover: 'move' };

type Point = Extract<Located, { kind: 'point' }>;

/** How a verified gesture reaches its element: find it, move the pointer over it, send the gesture. */
export interface GestureSteps {
  /** Finds the element's point and arms the guard for the gesture. */
  locate: () => Promise<Located>;
  /** Finds the element's point again without arming a guard (what the pointer's coming did to the page). */
  recheck: () => Promise<Located>;
  /** Moves the pointer to the point (no button held). */
  move: (point: Point) => Promise<void>;
  /**
   * Moves the pointer to the point and locates the element again (arming the guard) once the page had
   * the move, in one go (see moveAndLocate); without it the move is answered first, then `locate` runs.
   */
  moveAndLocate?: (point: Point) => Promise<Located>;
  /**
   * Sends the gesture itself at the point (for a click: move, press, release); `pointerThere`: the
   * pointer is already at the point, so no move is needed first.
   */
  send: (point: Point, pointerThere: boolean) => Promise<void>;
  /** The button releases `send` makes (a click's count; none for a hover). */
  releases: number;
}

function samePoint(a: Point, b: Point): boolean {
  return Math.abs(a.x - b.x) < 1 && Math.abs(a.y - b.y) < 1;
}

/**
 * After the pointer came over the element, looks again: a page may react to the hover (a menu or a
 * promotion that opens over the element, an element that jumps away). Covered now, the gesture is not
 * sent at all and fails ELEMENT_OCCLUDED naming what opened; moved, it is aimed at the new point and
 * what lies at the old one is reported.
 */
async function afterHover(
  ctx: RoutineContext,
  handle: ElementHandle,
  gesture: Gesture,
  look: () => Promise<Located>,
  first: Point,
): Promise<{ located: Located; moved: string | null }> {
  let located: Located;
  try {
    located = await look();
  } catch (error) {
    if (isTabpilotError(error) && error.code === 'ELEMENT_OCCLUDED') {
      const cover = typeof error.details?.['cover'] === 'string' ? error.details['cover'] : 'another element';
      throw new TabpilotError(
        'ELEMENT_OCCLUDED',
        `${handle.label} ${first.element} was covered by ${cover} when the pointer came over it (the page opened it on hover); the ${gesture} was not sent. Dismiss or close it first, or take a new state`,
        { details: { cover, element: first.element, reason: 'opened-on-hover' } },
      );
    }
    throw error;
  }
  if (located.kind !== 'point' || samePoint(located, first)) {
    return { located, moved: null };
  }
  const left = await callInFrame(first.input.session, 'hitAt', first.input.x, first.input.y);
  ctx.log.debug(`the element moved when the pointer came over it; aiming the ${gesture} at its new place`, {
    element: handle.label,
    left_behind: left.element,
  });
  return { located, moved: left.element ?? 'nothing' };
}

/** One gesture and its verdict (a dialog the gesture opened counts as received: see unlessDialogOpened). */
async function sendAndCheck(
  ctx: RoutineContext,
  handle: ElementHandle,
  kind: GuardKind,
  send: () => Promise<void>,
  releases: number,
): Promise<Delivery> {
  const outcome = await unlessDialogOpened(async () => {
    if (kind === 'move') {
      await send();
      return deliveryOf(ctx, handle, kind);
    }
    // A press's verdict is asked for with the input rather than after it (one round trip less): the
    // guard answers once the gesture's releases have come.
    const [, delivery] = await Promise.all([send(), deliveryOf(ctx, handle, kind, releases)]);
    return delivery;
  });
  if (outcome.dialog) {
    ctx.log.debug('a dialog opened during the gesture', { element: handle.label });
    return REACHED;
  }
  return outcome.value;
}

/**
 * Where a verified gesture went: the point it was sent to (or the element's script target), what took
 * its first aim (null when it landed), and whether the page prevented the default of the click it caused.
 */
export interface SentGesture {
  located: Located;
  retried: string | null;
  prevented: boolean;
}

/**
 * Sends a gesture at a located point and checks that the element received it. The pointer comes over
 * the element first and the element is looked at again (see afterHover), then the gesture is sent. A
 * miss was stopped by the guard (presses; a move cannot be taken back, but nothing acts on a hover that
 * missed): after a rendered frame the element is located again and the gesture sent once more; a second
 * miss fails ELEMENT_OCCLUDED naming what took it. Returns the point it was sent to and what took the
 * first aim (null when it landed), or the element's script target when a fresh look finds no box
 * (clicks).
 */
export async function sendVerified(
  ctx: RoutineContext,
  handle: ElementHandle,
  gesture: Gesture,
  steps: GestureSteps,
  first: Point,
): Promise<SentGesture> {
  if (gesture === 'hover') {
    await steps.move(first);
    const delivery = await deliveryOf(ctx, handle, 'move');
    if (delivery.kind === 'missed') {
      return retryOnce(ctx, handle, gesture, steps, first, missDescription(delivery));
    }
    const { located, moved } = await afterHover(ctx, handle, gesture, steps.recheck, first);
    return moved === null
      ? { located, retried: null, prevented: false }
      : retryOnce(ctx, handle, gesture, steps, first, moved);
  }
  const moveAndLocate = steps.moveAndLocate;
  const look =
    moveAndLocate === undefined
      ? async () => {
          await steps.move(first);
          return steps.locate();
        }
      : () => moveAndLocate(first);
  const { located, moved } = await afterHover(ctx, handle, gesture, look, first);
  if (located.kind !== 'point') {
    return { located, retried: moved, prevented: false };
  }
  const delivery = await sendAndCheck(
    ctx,
    handle,
    GUARD_OF[gesture],
    () => steps.send(located, moved === null),
    steps.releases,
  );
  if (delivery.kind === 'reached') {
    return { located, retried: moved, prevented: delivery.prevented };
  }
  return retryOnce(ctx, handle, gesture, steps, located, missDescription(delivery));
}

async function retryOnce(
  ctx: RoutineContext,
  handle: ElementHandle,
  gesture: Gesture,
  steps: GestureSteps,
  missed: Point,
  hit: string,
): Promise<SentGesture & { retried: string }> {
  ctx.log.debug(`the ${gesture} missed its element; retrying at its fresh position`, { element: handle.label, hit });
  await renderedFrame(ctx, handle);
  const located = await steps.locate();
  if (located.kind !== 'point') {
    return { located, retried: hit, prevented: false };
  }
  const delivery = await sendAndCheck(ctx, handle, GUARD_OF[gesture], () => steps.send(located, false), steps.releases);
  if (delivery.kind === 'missed') {
    throw new TabpilotError(
      'ELEMENT_OCCLUDED',
      `${handle.label} ${located.element} did not receive the ${gesture}, twice: ${missDescription(delivery)} took it at (${Math.round(located.x)}, ${Math.round(located.y)})${gesture === 'hover' ? '' : ', and was stopped before it acted'}. Take a new state`,
      { details: { cover: delivery.hit, element: missed.element, reason: 'missed' } },
    );
  }
  return { located, retried: hit, prevented: delivery.prevented };
}
