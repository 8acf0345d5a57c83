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

/**
 * The person's Resume: the hold is lifted and programs may work again. A Stop left the session stopped
 * (nothing attached) and the programs' leases pointing at tabs it let go of: the session starts again
 * with no tab, and those leases end, so a program's next navigate opens a tab for it as at first.
 */
export async function liftClientHold(options: {
  router: { liftHold(): void };
  session: {
    readonly connectionState: string;
    start(): Promise<unknown>;
    readonly targets: { target(targetId: string): unknown };
  };
  leases: { retain(alive: (targetId: string) => boolean): void };
}): Promise<void> {
  const { router, session, leases } = options;
  router.liftHold();
  if (session.connectionState === 'stopped') {
    await session.start();
  }
  leases.retain((targetId) => session.targets.target(targetId) !== undefined);
}
