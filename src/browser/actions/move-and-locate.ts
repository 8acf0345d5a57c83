import { errorMessageOf } from '../../shared/errors';
import type { ElementHandle, RoutineContext } from './element';
import type { PointerTarget } from './in-page-api';
import { callOn } from './in-page-call';
import { locatedFrom, pointerOptions, type Located, type LocateOptions } from './locate';

type Point = Extract<Located, { kind: 'point' }>;

/**
 * How long a look may still take after its move was answered before the page is told the pointer came.
 * The look normally answers a task after the move was dispatched, about when the move's answer does.
 */
const ARRIVAL_GRACE_MS = 20;

type LookOutcome = { target: PointerTarget } | { error: unknown };

/**
 * Moves the pointer to the point and looks at the element again once the page has had the move (what
 * the pointer's coming did to it: a menu that opened over the element, an element that moved away). The
 * look goes out with the move and runs in the page when the pointer has arrived there, not in a round
 * trip of its own after the move was answered. A look still waiting a moment after the move was answered
 * (no event for it came to the element's document: the pointer was there already, or a frame on top
 * took the move) is released and runs at once.
 */
export async function moveAndLocate(
  ctx: RoutineContext,
  handle: ElementHandle,
  point: Point,
  options: LocateOptions,
  move: (point: Point) => Promise<void>,
): Promise<Located> {
  const look: Promise<LookOutcome> = callOn(
    handle.session,
    handle.objectId,
    'pointerTargetAfterMove',
    pointerOptions(options),
    point.input.x,
    point.input.y,
  ).then(
    (target) => ({ target }),
    (error: unknown) => ({ error }),
  );
  try {
    await move(point);
  } catch (error) {
    await release(ctx, handle);
    await look;
    throw error;
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  const grace = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ARRIVAL_GRACE_MS);
  });
  let outcome = await Promise.race([look, grace]);
  clearTimeout(timer);
  if (outcome === undefined) {
    await release(ctx, handle);
    outcome = await look;
  }
  if ('error' in outcome) {
    throw outcome.error;
  }
  return locatedFrom(ctx, handle, outcome.target, options);
}

async function release(ctx: RoutineContext, handle: ElementHandle): Promise<void> {
  try {
    await callOn(handle.session, handle.objectId, 'releaseArrivals');
  } catch (error) {
    // The document went away: its look fails on its own.
    ctx.log.debug('could not release the look after the move', { error: errorMessageOf(error) });
  }
}
