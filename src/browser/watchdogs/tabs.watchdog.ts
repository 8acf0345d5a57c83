import { defineWatchdog } from '../define-watchdog';
import {
  AttachTabEvent,
  CloseTabEvent,
  ListTabsEvent,
  ReleaseTabEvent,
  SwitchTabEvent,
} from '../../protocol/events/tabs.events';
import { TAB_EVENTS, TabDesk } from './tab-desk';

/**
 * Which tabs tabpilot works in, and which one has the agent's focus: list, switch, close, attach and
 * release (see TabDesk). Where tabpilot owns the browser (Node) every page is controlled: attach
 * (re)connects and focuses a tab, and release lets go of the browser and leaves it running. In the
 * extension they add and remove tabs from the controlled set through the host's tab control.
 */
export const tabsWatchdog = defineWatchdog({
  name: 'tabs',
  listensTo: [ListTabsEvent, SwitchTabEvent, CloseTabEvent, AttachTabEvent, ReleaseTabEvent],
  emits: TAB_EVENTS,
  setup: (ctx) => {
    const desk = new TabDesk(ctx.session);
    return {
      ListTabsEvent: (event) => desk.list(event.payload, event.meta.source?.startsWith('native:') === true),
      SwitchTabEvent: (event, hctx) => desk.switch(event.payload, hctx.emit),
      CloseTabEvent: (event) => desk.close(event.payload),
      AttachTabEvent: (event, hctx) => desk.attach(event.payload, hctx.emit),
      ReleaseTabEvent: (event, hctx) => desk.release(event.payload, hctx.emit),
    };
  },
});
