import { defineWatchdog } from '../define-watchdog';
import { BrowserStopEvent, BrowserStoppedEvent } from '../events/lifecycle.events';
import { TabClosedEvent } from '../events/tabs.events';

/**
 * There is always a tab to work in, where tabpilot owns the browser (Node): when the last page closes
 * a blank one opens, so the browser does not exit with its last window. The extension never opens a tab
 * for this (DESIGN §4), so its entry does not register this watchdog. browser-use also paints a "DVD
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
        const cdp = ctx.session.cdp;
        if (stopping || !cdp.connected || !cdp.ownsBrowser) {
          return;
        }
        // Focus recovery may already be opening a blank page: let it finish before deciding.
        await cdp.settled();
        if (cdp.pages().length === 0) {
          const page = await cdp.createPage('about:blank');
          if (cdp.focusedTargetId === undefined) {
            cdp.setFocus(page.targetId);
          }
        }
      },
    };
  },
});
