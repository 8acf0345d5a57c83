import { TabpilotError } from '../../shared/errors';
import type { ElementHandle, RoutineContext } from './element';
import { locatePointer, type Located } from './locate';
import { moveToPoint } from './mouse';
import { sendVerified } from './verify';

const LOCATE = { scroll: true, refuse: false, allowScript: false, guard: 'move' } as const;

export interface HoverOutcome {
  x: number;
  y: number;
  /** Null when the first move reached the element; else what it hovered instead (it was moved again). */
  retried: string | null;
}

function point(located: Located): Extract<Located, { kind: 'point' }> {
  if (located.kind !== 'point') {
    throw new TabpilotError('INTERNAL', 'hover got a script target it did not allow');
  }
  return located;
}

/**
 * Moves the mouse over an element (menus that open on hover), at a point that reaches it, and checks
 * that the element is what the pointer came over (or is hovered already); a miss is moved again once
 * at the element's fresh position, then fails ELEMENT_OCCLUDED naming what was hovered instead.
 */
export async function hoverElement(ctx: RoutineContext, handle: ElementHandle): Promise<HoverOutcome> {
  const locate = async (): Promise<Extract<Located, { kind: 'point' }>> =>
    point(await locatePointer(ctx, handle, LOCATE));
  const move = (at: Extract<Located, { kind: 'point' }>): Promise<void> => moveToPoint(at, handle.pageSession);
  const { located, retried } = await sendVerified(
    ctx,
    handle,
    'hover',
    {
      locate,
      recheck: async () => point(await locatePointer(ctx, handle, { ...LOCATE, guard: null })),
      move,
      send: move,
      releases: 0,
    },
    await locate(),
  );
  const { x, y } = point(located);
  return { x, y, retried };
}
