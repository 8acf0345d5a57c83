import { defineWatchdog } from '../define-watchdog';
import { BrowserStopEvent, BrowserStoppedEvent } from '../../protocol/events/lifecycle.events';
import { TabClosedEvent } from '../../protocol/events/tabs.events';

/**
 * There is always a tab to work in, where tabpilot owns the browser (Node): when the last page closes
 * a blank one opens, so the browser does not exit with its last window. The extension never opens a tab
 * for this, so its entry does not register this watchdog. browser-use also paints a "DVD
 * screensaver" that fetches a remote image into every blank tab; we leave blank tabs blank.
 */
export const aboutBlankWatchdog = defineWatchdog({
  name: 'about-blank',
  listensTo: [BrowserStopEvent, BrowserStoppedEvent, TabClosedEvent],
  emits: [],
  setup: (ctx) => {
    let stopping = false;
    return {
      BrowserStopEvent: () => {
        stopping = true;
      },
      BrowserStoppedEvent: () => {
        stopping = true;
      },
      TabClosedEvent: async () => {
        const targets = ctx.session.targets;
        if (stopping || !targets.connected || !targets.ownsBrowser) {
          return;
        }
        // Focus recovery may already be opening a blank page: let it finish before deciding.
        await targets.settled();
        if (targets.pages().length === 0) {
          const page = await targets.createPage('about:blank');
          if (targets.focusedTargetId === undefined) {
            targets.setFocus(page.targetId);
          }
        }
      },
    };
  },
});
