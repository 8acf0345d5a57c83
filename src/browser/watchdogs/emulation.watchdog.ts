import { isPageType } from '../../cdp/target';
import { EmulateEvent } from '../../protocol/actions/emulation.actions';
import { isEmpty, nextEmulation, noEmulation, type EmulationState } from '../../protocol/emulation-settings';
import { ReleaseTabEvent, TabClosedEvent, TabLeaseEndedEvent } from '../../protocol/events/tabs.events';
import { bestEffort } from '../../shared/logger';
import { defineWatchdog } from '../define-watchdog';
import { applyEmulation, reapplyEmulation } from '../emulation/apply-emulation';
import { grantGeolocation, withdrawGeolocation, type GeolocationGrant } from '../emulation/geolocation-permission';

/** What emulate set in one tab, and the origin it granted geolocation to (to withdraw it again). */
interface TabEmulation {
  state: EmulationState;
  grantedOrigin: string | null;
  permission: GeolocationGrant | null;
}

/**
 * EmulationWatchdog: the `emulate` action. What a tab emulates is kept here by target and sent again to
 * every new session of that tab (a reconnect attaches new ones; CDP's Emulation overrides belong to the
 * session, and outlive the tab's navigations on their own). Releasing the tab clears it all while the
 * session still answers (this watchdog runs before the tabs watchdog), and so does the end of the
 * client's lease on it, so nothing a client set stays on a tab it let go.
 */
export const emulationWatchdog = defineWatchdog({
  name: 'emulation',
  listensTo: [EmulateEvent, ReleaseTabEvent, TabLeaseEndedEvent, TabClosedEvent],
  emits: [],
  setup: (ctx) => {
    const targets = ctx.session.targets;
    const tabs = new Map<string, TabEmulation>();
    const base = (): { width: number; height: number } | null => ctx.session.config.viewport;

    const disposeSetup = targets.addSessionSetup(async (session, target) => {
      const held = tabs.get(target.targetId);
      if (held !== undefined && isPageType(target.type)) {
        await reapplyEmulation(session, held.state, base(), ctx.log);
      }
    });
    ctx.signal.addEventListener('abort', disposeSetup, { once: true });

    const clear = async (targetId: string): Promise<void> => {
      const held = tabs.get(targetId);
      tabs.delete(targetId);
      if (held === undefined) {
        return;
      }
      const session = targets.sessionFor(targetId);
      if (session !== undefined) {
        await bestEffort(
          applyEmulation(session, held.state, noEmulation(), base(), ctx.log),
          ctx.log,
          'clearing the emulation of a released tab',
        );
      }
      if (held.grantedOrigin !== null) {
        await bestEffort(
          withdrawGeolocation(targets, held.grantedOrigin),
          ctx.log,
          'withdrawing the geolocation granted to a released tab',
        );
      }
    };

    return {
      EmulateEvent: async (event) => {
        const { target_id: targetId, ...request } = event.payload;
        const session = targets.requireSession(targetId);
        const held = tabs.get(targetId) ?? { state: noEmulation(), grantedOrigin: null, permission: null };
        const next = nextEmulation(held.state, request);
        await applyEmulation(session, held.state, next, base(), ctx.log);
        // Held at once: should the grant below fail, a release still clears what the tab now emulates.
        tabs.set(targetId, { ...held, state: next });

        let { grantedOrigin, permission } = held;
        if (next.geolocation === null) {
          if (grantedOrigin !== null) {
            await withdrawGeolocation(targets, grantedOrigin);
          }
          grantedOrigin = null;
          permission = null;
        } else if (request.geolocation !== undefined || permission === null) {
          const granted = await grantGeolocation({
            targets,
            pageUrl: targets.target(targetId)?.url ?? '',
            byConfig: ctx.session.config.permissions.includes('geolocation'),
            log: ctx.log,
          });
          if (grantedOrigin !== null && grantedOrigin !== granted.origin) {
            await withdrawGeolocation(targets, grantedOrigin);
          }
          grantedOrigin = granted.origin;
          permission = granted.grant;
        }

        if (isEmpty(next) && grantedOrigin === null) {
          tabs.delete(targetId);
        } else {
          tabs.set(targetId, { state: next, grantedOrigin, permission });
        }
        return { ...next, geolocation_permission: permission };
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

      // A client let go of tabs tabpilot keeps (Node's release by a client, the person disconnecting one).
      TabLeaseEndedEvent: async (event) => {
        await Promise.all(event.payload.target_ids.map((targetId) => clear(targetId)));
      },

      TabClosedEvent: async (event) => {
        await clear(event.payload.target_id);
      },
    };
  },
});
