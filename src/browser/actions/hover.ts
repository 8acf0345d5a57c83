import { TabpilotError } from '../../shared/errors';
import type { ElementHandle, RoutineContext } from './element';
import { locatePointer } from './locate';
import { moveTo } from './mouse';

/** Moves the mouse over an element (menus that open on hover), at a point that reaches it. */
export async function hoverElement(ctx: RoutineContext, handle: ElementHandle): Promise<{ x: number; y: number }> {
  const located = await locatePointer(ctx, handle, { scroll: true, refuse: false, allowScript: false, guard: null });
  if (located.kind !== 'point') {
    throw new TabpilotError('INTERNAL', 'hover got a script target it did not allow');
  }
  await moveTo(handle.pageSession, located.x, located.y);
  return { x: located.x, y: located.y };
}
