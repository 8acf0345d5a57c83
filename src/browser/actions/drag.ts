import type { Protocol } from '../../protocol/cdp';
import { TabpilotError } from '../../shared/errors';
import { bestEffort } from '../../shared/logger';
import type { ElementHandle, RoutineContext } from './element';
import { callOn } from './in-page-call';
import { locatePointer, type Located } from './locate';
import { moveTo, pageHidden, press } from './mouse';
import { renderedFrame } from './verify';

export interface DragOutcome {
  from: { x: number; y: number };
  to: { x: number; y: number };
  /** 'html5' when the page started a native drag (draggable elements), else plain mouse moves. */
  method: 'html5' | 'mouse';
  /** Null when the first press reached the element; else what it hit instead (it was pressed again). */
  retried: string | null;
}

export type DropTarget = { handle: ElementHandle } | { x: number; y: number };

const LOCATE_SOURCE = { scroll: true, refuse: false, allowScript: false, guard: 'press' } as const;

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
 * Presses the mouse on the drag's source at a point that reaches it, and checks that the press did.
 * A press that missed (something moved under the point) was stopped by the guard before the page saw
 * it: it is released there (stopped too), and pressed once more at the element's fresh position after
 * a rendered frame; a second miss fails ELEMENT_OCCLUDED naming what took it.
 */
async function locateSource(ctx: RoutineContext, source: ElementHandle): Promise<Extract<Located, { kind: 'point' }>> {
  const from = await locatePointer(ctx, source, LOCATE_SOURCE);
  if (from.kind !== 'point') {
    throw new TabpilotError('INVALID_PARAMS', `${source.label} is not in view to drag`);
  }
  return from;
}

async function pressOnSource(
  ctx: RoutineContext,
  source: ElementHandle,
  first: Extract<Located, { kind: 'point' }>,
): Promise<{ from: Extract<Located, { kind: 'point' }>; retried: string | null }> {
  const page = source.pageSession;
  let retried: string | null = null;
  for (let from = first; ; from = await locateSource(ctx, source)) {
    await moveTo(page, from.x, from.y);
    await press(page, from.x, from.y, 'left', 'mousePressed');
    const verdict = await callOn(source.session, source.objectId, 'guardPeek');
    if (verdict.state !== 'missed') {
      await callOn(source.session, source.objectId, 'guardVerdict');
      return { from, retried };
    }
    await press(page, from.x, from.y, 'left', 'mouseReleased');
    await callOn(source.session, source.objectId, 'guardVerdict');
    const hit = verdict.hit ?? 'another frame';
    if (retried !== null) {
      throw new TabpilotError(
        'ELEMENT_OCCLUDED',
        `${source.label} ${from.element} did not receive the drag's press, twice: ${hit} took it at (${Math.round(from.x)}, ${Math.round(from.y)}), and was stopped before it acted. Take a new state`,
        { details: { cover: verdict.hit, element: from.element, reason: 'missed' } },
      );
    }
    retried = hit;
    ctx.log.debug("the drag's press missed its element; pressing again at its fresh position", {
      element: source.label,
      hit,
    });
    await renderedFrame(ctx, source);
  }
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
  const located = await locateSource(ctx, source);
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
    const { from, retried } = await pressOnSource(ctx, source, located);
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
    return {
      from: { x: from.x, y: from.y },
      to: { x: to.x, y: to.y },
      method: drag === undefined ? 'mouse' : 'html5',
      retried,
    };
  } finally {
    stopListening();
    if (intercepting !== undefined) {
      void bestEffort(page.send('Input.setInterceptDrags', { enabled: false }), ctx.log, 'ending drag interception');
    }
  }
}
