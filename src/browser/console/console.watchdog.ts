import { defineWatchdog } from '../define-watchdog';
import { followConsole } from './follow-console';
import { ConsoleMessagesEvent } from '../../protocol/actions/content.actions';
import { ConsoleErrorsSinceStateEvent } from '../../protocol/events/state.events';
import { TabClosedEvent } from '../../protocol/events/tabs.events';

/**
 * ConsoleWatchdog: each tab's console since its page loaded, bounded (console calls, uncaught exceptions,
 * the browser's own messages), for console_messages; and the count of its errors since its last state,
 * for the state. A closed tab's list goes with it.
 */
export const consoleWatchdog = defineWatchdog({
  name: 'console',
  listensTo: [ConsoleMessagesEvent, ConsoleErrorsSinceStateEvent, TabClosedEvent],
  emits: [],
  setup: (ctx) => {
    const messages = followConsole(ctx.session.targets, ctx.signal);
    return {
      ConsoleMessagesEvent: (event) => {
        const { target_id, levels, text_contains, since_mark, max_results } = event.payload;
        ctx.session.targets.requireSession(target_id);
        return messages.list(target_id, {
          levels,
          textContains: text_contains,
          sinceMark: since_mark,
          max: max_results,
        });
      },
      ConsoleErrorsSinceStateEvent: (event) => ({ errors: messages.takeErrorCount(event.payload.target_id) }),
      TabClosedEvent: (event) => {
        messages.forget(event.payload.target_id);
      },
    };
  },
});
