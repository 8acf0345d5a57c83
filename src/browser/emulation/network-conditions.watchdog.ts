import type { CdpSession } from '../../cdp/session';
import { NetworkConditionsEvent } from '../../protocol/actions/network-conditions.actions';
import {
  cdpNetworkConditions,
  isUnconditioned,
  nextNetworkConditions,
  noNetworkConditions,
  type NetworkConditions,
} from '../../protocol/network-conditions';
import { defineWatchdog } from '../define-watchdog';
import { OVERRIDE_END_EVENTS, TabOverrides } from '../tab-overrides';

async function apply(session: CdpSession, conditions: NetworkConditions): Promise<void> {
  await session.send('Network.emulateNetworkConditions', cdpNetworkConditions(conditions));
}

/**
 * NetworkConditionsWatchdog: the `network_conditions` action. The conditions belong to the CDP session
 * and outlive the tab's navigations; TabOverrides keeps them by target, sends them again to every new
 * session of the tab, and clears them when the client lets the tab go or it closes, so no client leaves
 * a tab offline or slow.
 * The Network domain stays enabled: the request log needs it.
 */
export const networkConditionsWatchdog = defineWatchdog({
  name: 'network-conditions',
  listensTo: [NetworkConditionsEvent, ...OVERRIDE_END_EVENTS],
  emits: [],
  setup: (ctx) => {
    const targets = ctx.session.targets;
    const tabs = new TabOverrides<NetworkConditions>(ctx, {
      what: 'the network conditions',
      reapply: apply,
      undo: async (_held, session) => {
        if (session !== undefined) {
          await apply(session, noNetworkConditions());
        }
      },
    });

    return {
      NetworkConditionsEvent: async (event) => {
        const { target_id: targetId, ...request } = event.payload;
        const session = targets.requireSession(targetId);
        const next = nextNetworkConditions(tabs.get(targetId) ?? noNetworkConditions(), request);
        await apply(session, next);
        if (isUnconditioned(next)) {
          tabs.forget(targetId);
        } else {
          tabs.set(targetId, next);
        }
        return next;
      },

      ...tabs.endHandlers(),
    };
  },
});
