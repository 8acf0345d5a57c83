import type { CdpSession } from '../../cdp/session';
import type { Protocol } from '../../protocol/cdp';
import { TabpilotError } from '../../shared/errors';
import type { Modifier } from './keys';

/**
 * Trusted mouse input on a tab's top-level session (Input.dispatchMouseEvent, tab viewport CSS px).
 * Events of one gesture are sent together (pipelined): the browser handles them in order and a click
 * costs about one round trip plus the page's own handling. Nothing waits for a rendered frame.
 */

export type MouseButton = 'left' | 'right' | 'middle';
export type { Modifier };

const BUTTON_MASK: Record<MouseButton, number> = { left: 1, right: 2, middle: 4 };
const MODIFIER_MASK: Record<Modifier, number> = { Alt: 1, Control: 2, Meta: 4, Shift: 8 };

export function modifierMask(modifiers: readonly Modifier[]): number {
  return modifiers.reduce((mask, modifier) => mask | MODIFIER_MASK[modifier], 0);
}

export interface ClickOptions {
  button: MouseButton;
  clickCount: number;
  modifiers: readonly Modifier[];
}

/**
 * Move (unless the pointer is there already: a move waits for the page's next frame), then press and
 * release `clickCount` times (a double click is two clicks, the second counted 2).
 */
export async function clickAt(
  session: CdpSession,
  x: number,
  y: number,
  options: ClickOptions,
  { move }: { move: boolean } = { move: true },
): Promise<void> {
  const modifiers = modifierMask(options.modifiers);
  const sent: Array<Promise<unknown>> = move
    ? [session.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x, y, modifiers })]
    : [];
  for (let count = 1; count <= options.clickCount; count++) {
    const common = { x, y, modifiers, button: options.button, clickCount: count } as const;
    sent.push(
      session.send('Input.dispatchMouseEvent', {
        ...common,
        type: 'mousePressed',
        buttons: BUTTON_MASK[options.button],
      }),
      session.send('Input.dispatchMouseEvent', { ...common, type: 'mouseReleased', buttons: 0 }),
    );
  }
  await Promise.all(sent);
}

/** Whether the tab's page is hidden: a background tab, or a minimized window. */
export async function pageHidden(session: CdpSession): Promise<boolean> {
  const { result } = await session.send('Runtime.evaluate', {
    expression: 'document.visibilityState',
    returnByValue: true,
  });
  return result.value === 'hidden';
}

/**
 * Sends a move (no button held) or a wheel turn and waits until the page has it. Chrome hands these to
 * the page with its next rendered frame (rAF-aligned input), and a hidden page renders none, so the call
 * would wait seconds; there a 1 px screenshot sent with it makes the page render one.
 */
async function deliverAligned(
  session: CdpSession,
  params: Protocol.Input.DispatchMouseEventRequest,
  pageSession: CdpSession,
  hidden: boolean,
): Promise<void> {
  const delivered = session.send('Input.dispatchMouseEvent', params);
  if (!hidden) {
    await delivered;
    return;
  }
  // On a loaded machine the forced frame can be drawn before the move reached the renderer, which then
  // waits for the next frame: force frames until the move is in.
  let done = false;
  const settled = delivered.then(
    () => {
      done = true;
    },
    () => {
      done = true;
    },
  );
  for (let frame = 0; frame < FORCED_FRAMES && !done; frame++) {
    await Promise.race([settled, renderFrame(pageSession)]);
  }
  if (!done) {
    throw new TabpilotError(
      'TIMEOUT',
      `The background tab did not take the mouse move after ${FORCED_FRAMES} forced frames: switch to the tab first`,
    );
  }
  await delivered;
}

/** Frames forced for one move in a hidden page before giving up (each one answers in a few ms). */
const FORCED_FRAMES = 50;

/** Makes a page render a frame now, even a hidden one (a 1 px screenshot). */
export async function renderFrame(session: CdpSession): Promise<void> {
  await session.send('Page.captureScreenshot', { clip: { x: 0, y: 0, width: 1, height: 1, scale: 1 } });
}

/**
 * Moves the mouse to a point of `session`'s viewport (the tab's, or an out-of-process frame's own).
 * `pageSession` is the tab's, where a hidden page is made to render.
 */
export async function moveTo(
  session: CdpSession,
  x: number,
  y: number,
  pressed: MouseButton | null = null,
  pageSession: CdpSession = session,
): Promise<void> {
  if (pressed === null) {
    await deliverAligned(session, { type: 'mouseMoved', x, y, buttons: 0 }, pageSession, await pageHidden(pageSession));
    return;
  }
  // With a button held the page is not asked anything (it may not answer until the move is delivered).
  await session.send('Input.dispatchMouseEvent', {
    type: 'mouseMoved',
    x,
    y,
    buttons: BUTTON_MASK[pressed],
    button: pressed,
  });
}

/**
 * Moves the mouse (no button held) to a located point, whose look at the element already said whether
 * the page is hidden: no round trip to ask again.
 */
export async function moveToPoint(
  point: { input: { session: CdpSession; x: number; y: number }; hidden: boolean },
  pageSession: CdpSession,
): Promise<void> {
  const { session, x, y } = point.input;
  await deliverAligned(session, { type: 'mouseMoved', x, y, buttons: 0 }, pageSession, point.hidden);
}

export async function press(
  session: CdpSession,
  x: number,
  y: number,
  button: MouseButton,
  type: 'mousePressed' | 'mouseReleased',
  clickCount = 1,
): Promise<void> {
  await session.send('Input.dispatchMouseEvent', {
    type,
    x,
    y,
    button,
    clickCount,
    buttons: type === 'mousePressed' ? BUTTON_MASK[button] : 0,
  });
}

/** A wheel turn at a point: what the page under it does with it is up to the page (the actor's Mouse.scroll). */
export async function wheel(session: CdpSession, x: number, y: number, deltaX: number, deltaY: number): Promise<void> {
  await deliverAligned(session, { type: 'mouseWheel', x, y, deltaX, deltaY }, session, await pageHidden(session));
}
