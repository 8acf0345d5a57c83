import { sleep } from '../../shared/time';
import { defineWatchdog } from '../define-watchdog';
import {
  GoBackEvent,
  GoForwardEvent,
  NavigateToUrlEvent,
  RefreshEvent,
  SearchEvent,
  WaitEvent,
} from '../../protocol/events/navigation.events';
import { NAVIGATION_EVENTS, TabNavigator } from './tab-navigator';

/**
 * Moving a tab: navigate (in the tab, or a new one), search, the history moves, reload, and wait. Every
 * navigation runs between NavigationStartedEvent, awaited before anything is sent (so a policy handler
 * that throws stops it), and NavigationCompleteEvent. `go_back` at the first page is an error, not a
 * silent no-op as in browser-use.
 */
export const navigationWatchdog = defineWatchdog({
  name: 'navigation',
  listensTo: [NavigateToUrlEvent, SearchEvent, GoBackEvent, GoForwardEvent, RefreshEvent, WaitEvent],
  emits: NAVIGATION_EVENTS,
  setup: (ctx) => {
    const navigator = new TabNavigator(ctx.session);
    return {
      NavigateToUrlEvent: (event, hctx) => navigator.navigate(hctx, event.payload),
      SearchEvent: (event, hctx) => navigator.search(hctx, event.payload),
      GoBackEvent: (event, hctx) => navigator.historyMove(hctx, event.payload.target_id, -1),
      GoForwardEvent: (event, hctx) => navigator.historyMove(hctx, event.payload.target_id, 1),
      RefreshEvent: (event, hctx) => navigator.refresh(hctx, event.payload.target_id),
      WaitEvent: async (event, hctx) => {
        await sleep(event.payload.seconds * 1000, hctx.signal);
        return { waited_seconds: event.payload.seconds };
      },
    };
  },
});
