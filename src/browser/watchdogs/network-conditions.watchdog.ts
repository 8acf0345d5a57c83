import { isPageType } from '../../cdp/target';
import type { CdpSession } from '../../cdp/session';
import { NetworkConditionsEvent } from '../../protocol/actions/network-conditions.actions';
import {
  cdpNetworkConditions,
  isUnconditioned,
  nextNetworkConditions,
  noNetworkConditions,
  type NetworkConditions,
} from '../../protocol/network-conditions';
import { ReleaseTabEvent, TabClosedEvent, TabLeaseEndedEvent } from '../../protocol/events/tabs.events';
import { bestEffort } from '../../shared/logger';
import { defineWatchdog } from '../define-watchdog';

async function apply(session: CdpSession, conditions: NetworkConditions): Promise<void> {
  await session.send('Network.emulateNetworkConditions', cdpNetworkConditions(conditions));
}

/**
 * NetworkConditionsWatchdog: the `network_conditions` action, in the emulation watchdog's pattern. The
 * conditions belong to the CDP session and outlive the tab's navigations; they are kept here by target
 * and sent again to every new session of the tab (a reconnect attaches new ones). Releasing the tab, the
 * end of the client's lease on it and its closing clear them, so no client leaves a tab offline or slow.
 * The Network domain stays enabled: the request log needs it.
 */
export const networkConditionsWatchdog = defineWatchdog({
  name: 'network-conditions',
  listensTo: [NetworkConditionsEvent, ReleaseTabEvent, TabLeaseEndedEvent, TabClosedEvent],
  emits: [],
  setup: (ctx) => {
    const targets = ctx.session.targets;
    const tabs = new Map<string, NetworkConditions>();

    const disposeSetup = targets.addSessionSetup(async (session, target) => {
      const held = tabs.get(target.targetId);
      if (held !== undefined && isPageType(target.type)) {
        await apply(session, held);
      }
    });
    ctx.signal.addEventListener('abort', disposeSetup, { once: true });

    const clear = async (targetId: string): Promise<void> => {
      const held = tabs.get(targetId);
      tabs.delete(targetId);
      const session = targets.sessionFor(targetId);
      if (held !== undefined && session !== undefined) {
        await bestEffort(
          apply(session, noNetworkConditions()),
          ctx.log,
          'clearing the network conditions of a released tab',
        );
      }
    };

    return {
      NetworkConditionsEvent: async (event) => {
        const { target_id: targetId, ...request } = event.payload;
        const session = targets.requireSession(targetId);
        const next = nextNetworkConditions(tabs.get(targetId) ?? noNetworkConditions(), request);
        await apply(session, next);
        if (isUnconditioned(next)) {
          tabs.delete(targetId);
        } else {
          tabs.set(targetId, next);
        }
        return next;
      },

      // Runs before the tabs watchdog lets the tab go, while its session still answers.
      ReleaseTabEvent: async (event) => {
        const only = event.payload.target_id;
        if (only !== undefined && ctx.session.host.tabControl === undefined) {
          return; // Where tabpilot owns the browser the tabs watchdog refuses a release of one tab.
        }
        const released = only === undefined ? [...tabs.keys()] : [only];
        await Promise.all(released.map((targetId) => clear(targetId)));
      },

      TabLeaseEndedEvent: async (event) => {
        await Promise.all(event.payload.target_ids.map((targetId) => clear(targetId)));
      },

      TabClosedEvent: async (event) => {
        await clear(event.payload.target_id);
      },
    };
  },
});
