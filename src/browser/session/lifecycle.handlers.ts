import {
  BrowserConnectedEvent,
  BrowserLaunchEvent,
  BrowserStartEvent,
  BrowserStopEvent,
  BrowserStoppedEvent,
} from '../../protocol/events/lifecycle.events';
import { TabpilotError } from '../../shared/errors';
import { redactUrl } from '../../shared/redact-url';
import { stopLoading } from '../actions/navigation';
import type { BrowserSession } from '../session';

/** BrowserSession's own start and stop handlers; they run before every watchdog's (registered first). */
export function registerLifecycleHandlers(session: BrowserSession): void {
  session.bus.on(
    BrowserStartEvent,
    async (event, ctx) => {
      const current = session.endpoint;
      if (session.connectionState === 'connected' && current !== undefined) {
        return { cdp_url: redactUrl(current) };
      }
      session.setStateBeforeStart('connecting');
      try {
        let endpoint = event.payload.cdp_url ?? current;
        if (endpoint === undefined) {
          const launched = await ctx.emit(BrowserLaunchEvent, {});
          if (launched === undefined) {
            throw new TabpilotError('INTERNAL', 'BrowserLaunchEvent gave no endpoint');
          }
          endpoint = launched.cdp_url;
        }
        await session.connect(endpoint, ctx.signal);
        // A pool's URL carries its token: events and results show it masked.
        await ctx.emit(BrowserConnectedEvent, { cdp_url: redactUrl(endpoint) });
        return { cdp_url: redactUrl(endpoint) };
      } catch (error) {
        session.reportError('BrowserStartEventError', error);
        throw error;
      }
    },
    { name: 'BrowserSession.on_BrowserStartEvent' },
  );

  session.bus.on(
    BrowserStopEvent,
    async (event, ctx) => {
      // A navigation the stop cut short would hold back every command to its tab until the server
      // answered (the next attach would hang): stop loading first, bounded.
      if (session.connectionState === 'connected') {
        await Promise.all(
          session.targets.pages().flatMap((page) => {
            const pageSession = session.targets.sessionFor(page.targetId);
            return pageSession === undefined ? [] : [stopLoading(pageSession)];
          }),
        );
      }
      session.disconnect('stopped by request', event.payload.force);
      await ctx.emit(BrowserStoppedEvent, { reason: 'Stopped by request' });
      return { stopped: true as const, cancelled: ctx.preempted };
    },
    { name: 'BrowserSession.on_BrowserStopEvent' },
  );
}
