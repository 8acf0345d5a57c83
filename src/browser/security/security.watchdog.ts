import { defineWatchdog } from '../define-watchdog';
import { ConfigChangedEvent } from '../../protocol/events/config.events';
import { NavigationStartedEvent } from '../../protocol/events/navigation.events';
import { TabCreatedEvent } from '../../protocol/events/tabs.events';
import { BlockEnforcer, SECURITY_EVENTS } from './block-enforcer';
import { followBlocks } from './follow-blocks';
import { changesPolicy } from './url-policy';

/**
 * SecurityWatchdog: the URL policy on every road. Unlike browser-use's, which checks after the page
 * loaded (the request has reached the server by then), nothing it blocks is sent:
 * - navigate, history moves, reloads and the actor's goto are refused before sending (the navigation
 *   routines ask the session's NavigationGuard, and this watchdog checks NavigationStartedEvent too);
 * - every other request of a controlled tab, documents (links, scripts, meta refresh, forms, redirects,
 *   frames, popups) and subresources (images, fetch, beacons, workers' requests), is held at the network
 *   by the RequestGate and failed when the policy refuses it; a refused subresource is recorded with the
 *   guard and announced (stage `subresource`) but leaves the page where it is;
 * - a page that committed without a request the gate saw (the back/forward cache, a tab that came under
 *   control after it loaded) is left for about:blank, and a popup opened for a blocked URL is closed.
 * Each block is announced as NavigationBlockedEvent with the rule and the pattern; policy changes apply
 * to every controlled tab at once (ConfigChangedEvent is awaited by whoever applied the config).
 */
export const securityWatchdog = defineWatchdog({
  name: 'security',
  listensTo: [NavigationStartedEvent, TabCreatedEvent, ConfigChangedEvent],
  emits: SECURITY_EVENTS,
  setup: (ctx) => {
    const { targets, guard } = ctx.session;
    const enforcer = new BlockEnforcer(ctx);
    followBlocks(targets, guard, enforcer, ctx.signal);
    return {
      NavigationStartedEvent: (event) => {
        // Nothing to judge for a page that has no URL yet; the gate still holds its request.
        if (event.payload.url !== '') {
          guard.check(event.payload.url, event.payload.target_id);
        }
      },
      TabCreatedEvent: async (event) => {
        const { target_id: targetId, url } = event.payload;
        const target = targets.target(targetId);
        const session = targets.sessionFor(targetId);
        if (url !== '' && url !== 'about:blank' && target !== undefined && session !== undefined) {
          await enforcer.leaveIfRefused(target, session, url, 'tab');
        }
      },
      ConfigChangedEvent: async (event) => {
        if (changesPolicy(event.payload.changed)) {
          await enforcer.policyChanged();
        }
      },
    };
  },
});
