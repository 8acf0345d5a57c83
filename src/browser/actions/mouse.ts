import type { CdpSession } from '../../cdp/session';
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

/** Move, then press and release `clickCount` times (a double click is two clicks, the second counted 2). */
export async function clickAt(session: CdpSession, x: number, y: number, options: ClickOptions): Promise<void> {
  const modifiers = modifierMask(options.modifiers);
  const sent: Array<Promise<unknown>> = [
    session.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x, y, modifiers }),
  ];
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

export async function moveTo(
  session: CdpSession,
  x: number,
  y: number,
  pressed: MouseButton | null = null,
): Promise<void> {
  await session.send('Input.dispatchMouseEvent', {
    type: 'mouseMoved',
    x,
    y,
    buttons: pressed === null ? 0 : BUTTON_MASK[pressed],
    ...(pressed === null ? {} : { button: pressed }),
  });
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
  await session.send('Input.dispatchMouseEvent', { type: 'mouseWheel', x, y, deltaX, deltaY });
}
