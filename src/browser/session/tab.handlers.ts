import { TabpilotError } from '../../shared/errors';
import { pollUntil } from '../../shared/time';
import { CloseTabEvent, SwitchTabEvent } from '../events/tabs.events';
import type { BrowserSession } from '../session';

const CLOSE_WAIT_MS = 5000;

/** BrowserSession's tab handlers: switch focus, close a tab. */
export function registerTabHandlers(session: BrowserSession): void {
  session.bus.on(
    SwitchTabEvent,
    async (event, ctx) => {
      await session.cdp.settled();
      const pages = session.cdp.pages();
      const targetId = event.payload.target_id ?? pages[pages.length - 1]?.targetId;
      if (targetId === undefined) {
        throw new TabpilotError('NOT_ATTACHED', 'No tab to switch to');
      }
      session.cdp.setFocus(targetId);
      if (event.payload.activate) {
        await session.cdp.root.send('Target.activateTarget', { targetId });
      }
      await session.announceFocus(ctx);
      return targetId;
    },
    { name: 'BrowserSession.on_SwitchTabEvent' },
  );

  session.bus.on(
    CloseTabEvent,
    async (event) => {
      const targetId = event.payload.target_id;
      if (session.cdp.target(targetId) === undefined) {
        throw new TabpilotError('TAB_NOT_FOUND', `No controlled tab ${session.tabIdOf(targetId)}`);
      }
      await session.cdp.closeTarget(targetId);
      await pollUntil(() => (session.cdp.target(targetId) === undefined ? true : undefined), {
        timeoutMs: CLOSE_WAIT_MS,
        onTimeout: () =>
          new TabpilotError('TIMEOUT', `Tab ${session.tabIdOf(targetId)} did not close within ${CLOSE_WAIT_MS} ms`),
      });
      // Focus recovery (another controlled tab, or a blank one where tabpilot owns the browser) is done.
      await session.cdp.settled();
    },
    { name: 'BrowserSession.on_CloseTabEvent' },
  );
}
