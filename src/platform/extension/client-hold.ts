/**
 * The person's hold on every client: after their Stop or their Cancel on the debugging bar, no client
 * (native, MCP) may attach, navigate or open a tab, whatever it sends, until the person presses Resume
 * in the panel. The TabRouter keeps it; the client gate refuses with its reason.
 */

/** The debugging bar's Cancel, as a refused client reads it. */
export const CANCEL_HOLD = 'the person cancelled the debugging bar';

/** A Stop, as a refused client reads it: the panel's button, the keyboard shortcut, a tab's in-page Stop. */
export function stopHoldReason(origin: string): string {
  return origin === 'panel button' ? 'the person pressed Stop in the panel' : `the person pressed Stop (${origin})`;
}
