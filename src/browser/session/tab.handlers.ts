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
      await session.targets.settled();
      const pages = session.targets.pages();
      const targetId = event.payload.target_id ?? pages[pages.length - 1]?.targetId;
      if (targetId === undefined) {
        throw new TabpilotError('NOT_ATTACHED', 'No tab to switch to');
      }
      session.targets.setFocus(targetId);
      if (event.payload.activate) {
        await session.targets.root.send('Target.activateTarget', { targetId });
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
      if (session.targets.target(targetId) === undefined) {
        throw new TabpilotError('TAB_NOT_FOUND', `No controlled tab ${session.tabIdOf(targetId)}`);
      }
      await session.targets.closeTarget(targetId);
      await pollUntil(() => (session.targets.target(targetId) === undefined ? true : undefined), {
        timeoutMs: CLOSE_WAIT_MS,
        onTimeout: () =>
          new TabpilotError('TIMEOUT', `Tab ${session.tabIdOf(targetId)} did not close within ${CLOSE_WAIT_MS} ms`),
      });
      // Focus recovery (another controlled tab, or a blank one where tabpilot owns the browser) is done.
      await session.targets.settled();
    },
    { name: 'BrowserSession.on_CloseTabEvent' },
  );
}
