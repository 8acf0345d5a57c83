import { EmulateEvent } from '../../protocol/actions/emulation.actions';
import { isEmpty, nextEmulation, noEmulation, type EmulationState } from '../../protocol/emulation-settings';
import { bestEffort } from '../../shared/logger';
import { defineWatchdog } from '../define-watchdog';
import { applyEmulation, reapplyEmulation } from './apply-emulation';
import { grantGeolocation, withdrawGeolocation, type GeolocationGrant } from './geolocation-permission';
import { OVERRIDE_END_EVENTS, TabOverrides } from '../tab-overrides';

/** What emulate set in one tab, and the origin it granted geolocation to (to withdraw it again). */
interface TabEmulation {
  state: EmulationState;
  grantedOrigin: string | null;
  permission: GeolocationGrant | null;
}

/**
 * EmulationWatchdog: the `emulate` action. What a tab emulates is kept by target (TabOverrides) and sent
 * again to every new session of that tab (a reconnect attaches new ones; CDP's Emulation overrides belong
 * to the session, and outlive the tab's navigations on their own). Releasing the tab, the end of the
 * client's lease on it and its closing clear it all, geolocation grant included.
 */
export const emulationWatchdog = defineWatchdog({
  name: 'emulation',
  listensTo: [EmulateEvent, ...OVERRIDE_END_EVENTS],
  emits: [],
  setup: (ctx) => {
    const targets = ctx.session.targets;
    const base = (): { width: number; height: number } | null => ctx.session.config.viewport;
    const tabs = new TabOverrides<TabEmulation>(ctx, {
      what: 'the emulation',
      reapply: (session, held) => reapplyEmulation(session, held.state, base(), ctx.log),
      undo: async (held, session) => {
        if (session !== undefined) {
          await bestEffort(
            applyEmulation(session, held.state, noEmulation(), base(), ctx.log),
            ctx.log,
            'clearing the emulation of a released tab',
          );
        }
        if (held.grantedOrigin !== null) {
          await withdrawGeolocation(targets, held.grantedOrigin);
        }
      },
    });

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
          tabs.forget(targetId);
        } else {
          tabs.set(targetId, { state: next, grantedOrigin, permission });
        }
        return { ...next, geolocation_permission: permission };
      },

      ...tabs.endHandlers(),
    };
  },
});
