import type { NavigationGuard } from './navigation-guard';
import type { SessionManager } from '../../cdp/session-manager';
import { disposeOnAbort } from '../../shared/dispose';
import type { BlockEnforcer } from './block-enforcer';

/**
 * Puts the enforcer on every road a refused page can come by until `signal` aborts: the request gate,
 * commits, the guard's refusals of a navigation, and popups whose tab changed to a refused URL.
 */
export function followBlocks(
  targets: SessionManager,
  guard: NavigationGuard,
  enforcer: BlockEnforcer,
  signal: AbortSignal,
): void {
  disposeOnAbort(signal, [
    enforcer.gate.install(),
    targets.on('Page.frameNavigated', (params, source) => enforcer.committed(params, source.session, source.target)),
    guard.onRefused((refusal) => enforcer.announce(refusal.targetId, refusal.url, refusal.decision, 'navigate')),
    // A popup whose first document Chrome's network stack refused before its session listened (the
    // extension's rules for the tabs a controlled page opens) commits an error page unseen: its tab's
    // new URL is what tells.
    targets.observe((event) => {
      if (event.type !== 'targetChanged' || event.target.openerId === undefined) {
        return;
      }
      const session = targets.sessionFor(event.target.targetId);
      if (session !== undefined) {
        void enforcer.leaveIfRefused(event.target, session, event.target.url, 'tab');
      }
    }),
  ]);
}
