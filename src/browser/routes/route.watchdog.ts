import { RouteEvent } from '../../protocol/actions/route.actions';
import { MAX_ROUTES_PER_TAB } from '../../protocol/routes';
import { defineWatchdog } from '../define-watchdog';
import { routeSpecOf } from './route-spec';
import { OVERRIDE_END_EVENTS, TabOverrides } from '../tab-overrides';

/**
 * RouteWatchdog: the `route` action. The routes live in the session's TabRoutes, which the security
 * watchdog's request gate reads: it alone owns CDP's Fetch domain on every session (patterns and paused
 * requests), sends a tab's route patterns with the policy's to each new session of the tab (a reconnect,
 * a new frame or worker), and judges the policy before any route. TabOverrides here is only the
 * lifecycle: the routes are cleared when the client lets the tab go (a release, its lease ends) or the
 * tab closes; what it holds per tab is the tab's own target id, as the undo needs it.
 */
export const routeWatchdog = defineWatchdog({
  name: 'route',
  listensTo: [RouteEvent, ...OVERRIDE_END_EVENTS],
  emits: [],
  setup: (ctx) => {
    const { routes, targets } = ctx.session;
    const tabs = new TabOverrides<string>(ctx, {
      what: 'the routes',
      // Nothing to send: the request gate enables each new session with its tab's routes itself.
      reapply: async () => {},
      undo: (targetId) => routes.clear(targetId),
    });

    return {
      RouteEvent: async (event) => {
        const { target_id: targetId, op } = event.payload;
        targets.requireSession(targetId); // a closed tab: TAB_NOT_FOUND
        let routeId: string | null = null;
        if (op === 'add') {
          const spec = await routeSpecOf(event.payload, ctx.session.host.artifacts);
          routeId = await routes.add(targetId, spec);
        } else if (op === 'remove') {
          routeId = event.payload.route_id ?? '';
          await routes.remove(targetId, routeId);
        } else if (op === 'clear') {
          await routes.clear(targetId);
        }
        if (routes.has(targetId)) {
          tabs.set(targetId, targetId);
        } else {
          tabs.forget(targetId);
        }
        return { routes: routes.list(targetId), route_id: routeId, max_routes: MAX_ROUTES_PER_TAB };
      },

      ...tabs.endHandlers(),
    };
  },
});
