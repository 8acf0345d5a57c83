import type { ElementHandle, RoutineContext } from './element';
import { locatePointer } from './locate';
import { moveTo } from './mouse';

/** Moves the mouse over an element (menus that open on hover), at a point that reaches it. */
export async function hoverElement(ctx: RoutineContext, handle: ElementHandle): Promise<{ x: number; y: number }> {
  const located = await locatePointer(ctx, handle, { scroll: true, refuse: false, allowScript: false });
  if (located.kind !== 'point') {
    throw new Error('unreachable: hover never accepts a script target');
  }
  await moveTo(handle.pageSession, located.x, located.y);
  return { x: located.x, y: located.y };
}
