import type { Protocol } from '../../protocol/cdp';
import { TabpilotError } from '../../shared/errors';
import { bestEffort } from '../../shared/logger';
import type { ElementHandle, RoutineContext } from './element';
import { locatePointer } from './locate';
import { moveTo, pageHidden, press } from './mouse';

export interface DragOutcome {
  from: { x: number; y: number };
  to: { x: number; y: number };
  /** 'html5' when the page started a native drag (draggable elements), else plain mouse moves. */
  method: 'html5' | 'mouse';
}

export type DropTarget = { handle: ElementHandle } | { x: number; y: number };

/** The first move is a few px: enough for the page to start a drag before the long move. */
const START_NUDGE_PX = 6;

async function dropPoint(ctx: RoutineContext, target: DropTarget): Promise<{ x: number; y: number }> {
  if ('x' in target) {
    return target;
  }
  const located = await locatePointer(ctx, target.handle, {
    scroll: false,
    refuse: false,
    allowScript: false,
    guard: null,
  });
  if (located.kind !== 'point') {
    throw new TabpilotError('INVALID_PARAMS', `${target.handle.label} is not in view to drop on`);
  }
  return located;
}

/**
 * Drags an element to another element or a point with the mouse held down. A native HTML5 drag cannot be
 * driven by mouse events alone (the browser runs its own drag loop), so drags are intercepted
 * (Input.setInterceptDrags) and, when the page starts one, finished with Input.dispatchDragEvent
 * (dragEnter, dragOver, drop); pages that follow the mouse themselves (sliders, sortable lists) get the
 * mouse moves.
 */
export async function dragAndDrop(
  ctx: RoutineContext,
  source: ElementHandle,
  target: DropTarget,
  steps: number,
): Promise<DragOutcome> {
  if (await pageHidden(source.pageSession)) {
    // Measured on Chromium 156: a hidden page gets held-button moves only with a rendered frame, which it
    // does not render, and forcing one (a screenshot) with a button held sometimes never returns.
    throw new TabpilotError(
      'UNSUPPORTED',
      'Cannot drag in a background tab: Chrome does not deliver mouse moves with a button held to a hidden page. Switch to the tab first',
    );
  }
  const from = await locatePointer(ctx, source, { scroll: true, refuse: false, allowScript: false, guard: null });
  if (from.kind !== 'point') {
    throw new TabpilotError('INVALID_PARAMS', `${source.label} is not in view to drag`);
  }
  const to = await dropPoint(ctx, target);
  const page = source.pageSession;
  let drag: Protocol.Input.DragData | undefined;
  const stopListening = page.on('Input.dragIntercepted', (event) => {
    drag = event.data;
  });
  const intercepting = await bestEffort(
    page.send('Input.setInterceptDrags', { enabled: true }),
    ctx.log,
    'intercepting native drags',
  );
  try {
    await moveTo(page, from.x, from.y);
    await press(page, from.x, from.y, 'left', 'mousePressed');
    const dx = to.x - from.x;
    const dy = to.y - from.y;
    const length = Math.max(1, Math.hypot(dx, dy));
    await moveTo(
      page,
      from.x + (dx / length) * Math.min(START_NUDGE_PX, length),
      from.y + (dy / length) * Math.min(START_NUDGE_PX, length),
      'left',
    );
    // One round trip to the element's renderer: a drag it started has been announced by then.
    await source.session.send('Runtime.evaluate', { expression: '0' });
    let entered = false;
    for (let step = 1; step <= steps; step++) {
      const x = from.x + (dx * step) / steps;
      const y = from.y + (dy * step) / steps;
      if (drag === undefined) {
        await moveTo(page, x, y, 'left');
        continue;
      }
      if (!entered) {
        await page.send('Input.dispatchDragEvent', { type: 'dragEnter', x, y, data: drag });
        entered = true;
      }
      await page.send('Input.dispatchDragEvent', { type: 'dragOver', x, y, data: drag });
    }
    if (drag !== undefined) {
      await page.send('Input.dispatchDragEvent', { type: 'drop', x: to.x, y: to.y, data: drag });
    }
    await press(page, to.x, to.y, 'left', 'mouseReleased');
    return { from: { x: from.x, y: from.y }, to: { x: to.x, y: to.y }, method: drag === undefined ? 'mouse' : 'html5' };
  } finally {
    stopListening();
    if (intercepting !== undefined) {
      void bestEffort(page.send('Input.setInterceptDrags', { enabled: false }), ctx.log, 'ending drag interception');
    }
  }
}
