import type { CdpSession } from '../../cdp/session';
import type { TargetRecord } from '../../cdp/session-manager';
import type { Protocol } from '../../protocol/cdp';
import { errorMessageOf } from '../../shared/errors';
import { defineWatchdog } from '../define-watchdog';
import { ConfigChangedEvent } from '../../protocol/events/config.events';
import { NavigationStartedEvent } from '../../protocol/events/navigation.events';
import { NavigationBlockedEvent, type BLOCK_STAGES } from '../../protocol/events/security.events';
import { TabCreatedEvent } from '../../protocol/events/tabs.events';
import { RequestGate, type GateBlock } from './request-gate';
import { RecentKeys } from './recent-keys';
import { closeIfBlockedPopup, leaveBlockedPage } from './leave-blocked-page';
import type { BlockedDecision } from './navigation-guard';
import { changesPolicy } from './url-policy';
import { disposeOnAbort } from '../../shared/dispose';

/** A subresource URL blocked again within this time is not announced again (a page polling one URL). */
const SUBRESOURCE_REPEAT_MS = 5_000;

type Stage = (typeof BLOCK_STAGES)[number];

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
  emits: [NavigationBlockedEvent],
  setup: (ctx) => {
    const { targets, guard } = ctx.session;

    const announce = (
      targetId: string,
      url: string,
      decision: BlockedDecision,
      stage: Stage,
      extra: { frame?: 'main' | 'subframe'; tab_closed?: boolean } = {},
    ): void => {
      if (ctx.signal.aborted) {
        return;
      }
      ctx.emit(NavigationBlockedEvent, {
        target_id: targetId,
        url,
        rule: decision.rule,
        pattern: decision.pattern,
        reason: decision.reason,
        stage,
        ...extra,
      });
    };

    /**
     * The leaves in flight, by target and frame, each resolving to whether it closed the tab. The same
     * page can be seen blocked twice at once (its held request, its tab announced with the URL, its
     * commit): one leave is enough, and a second would find the tab already closing and call it open.
     */
    const leaving = new Map<string, Promise<boolean>>();
    const leaveOnce = (key: string, act: () => Promise<boolean>): { first: boolean; closed: Promise<boolean> } => {
      const running = leaving.get(key);
      if (running !== undefined) {
        return { first: false, closed: running };
      }
      const closed = act().finally(() => leaving.delete(key));
      leaving.set(key, closed);
      return { first: true, closed };
    };

    const leave = async (
      target: TargetRecord,
      session: CdpSession,
      url: string,
      decision: BlockedDecision,
      stage: Stage,
      frameId: string | undefined,
    ): Promise<void> => {
      const { first, closed } = leaveOnce(`${target.targetId}/${frameId ?? 'main'}`, () =>
        leaveBlockedPage(targets, target, session, frameId).catch((error: unknown) => {
          ctx.log.warn('could not leave a blocked page', { url, error: errorMessageOf(error) });
          return false;
        }),
      );
      if (!first) {
        return;
      }
      announce(target.pageTargetId ?? target.targetId, url, decision, stage, {
        frame: frameId === undefined ? 'main' : 'subframe',
        tab_closed: await closed,
      });
    };

    const onGateBlock = (block: GateBlock, session: CdpSession): void => {
      guard.noteBlocked({
        targetId: block.pageTargetId,
        url: block.url,
        decision: block.decision,
        mainFrame: block.mainFrame,
      });
      if (!block.document) {
        // The page stays; only the request failed. A page retrying one URL is announced once a while.
        if (subresourceAnnouncements.first(`${block.pageTargetId} ${block.url}`)) {
          announce(block.pageTargetId, block.url, block.decision, 'subresource', { frame: 'subframe' });
        }
        return;
      }
      // A held request is a block of its own: announced even when a leave of its tab is under way.
      const closing = block.mainFrame
        ? leaveOnce(`${block.target.targetId}/main`, () =>
            closeIfBlockedPopup(targets, block.target, session).catch((error: unknown) => {
              ctx.log.warn('could not close a blocked popup', { url: block.url, error: errorMessageOf(error) });
              return false;
            }),
          ).closed
        : Promise.resolve(false);
      void closing.then((closed) =>
        announce(block.pageTargetId, block.url, block.decision, 'request', {
          frame: block.mainFrame ? 'main' : 'subframe',
          tab_closed: closed,
        }),
      );
    };

    // A commit the gate did not hold: cached pages, tabs that came under control after they loaded.
    const onCommitted = (
      params: Protocol.Page.FrameNavigatedEvent,
      session: CdpSession,
      target: TargetRecord | undefined,
    ): void => {
      const { frame } = params;
      if (target === undefined || frame.unreachableUrl !== undefined || frame.url.startsWith('chrome-error:')) {
        return;
      }
      const url = frame.url + (frame.urlFragment ?? '');
      const decision = guard.decide(url);
      if (decision.allowed) {
        return;
      }
      const isMain = frame.parentId === undefined && target.type === 'page';
      void leave(target, session, url, decision, 'commit', isMain ? undefined : frame.id);
    };

    const subresourceAnnouncements = new RecentKeys(SUBRESOURCE_REPEAT_MS);
    const gate = new RequestGate(targets, guard, ctx.session.routes, ctx.log, onGateBlock, ctx.session.host.resolver);
    const disposers = [
      gate.install(),
      targets.on('Page.frameNavigated', (params, source) => onCommitted(params, source.session, source.target)),
      guard.onRefused((refusal) => announce(refusal.targetId, refusal.url, refusal.decision, 'navigate')),
      // A popup whose first document Chrome's network stack refused before its session listened (the
      // extension's rules for the tabs a controlled page opens) commits an error page unseen: its tab's
      // new URL is what tells.
      targets.observe((event) => {
        if (event.type !== 'targetChanged' || event.target.openerId === undefined) {
          return;
        }
        const { target } = event;
        const session = targets.sessionFor(target.targetId);
        if (session === undefined) {
          return;
        }
        const decision = guard.decide(target.url);
        if (!decision.allowed) {
          void leave(target, session, target.url, decision, 'tab', undefined);
        }
      }),
    ];
    disposeOnAbort(ctx.signal, disposers);

    return {
      NavigationStartedEvent: (event) => {
        // Nothing to judge for a page that has no URL yet; the gate still holds its request.
        if (event.payload.url !== '') {
          guard.check(event.payload.url, event.payload.target_id);
        }
      },

      TabCreatedEvent: async (event) => {
        const { target_id: targetId, url } = event.payload;
        if (url === '' || url === 'about:blank') {
          return;
        }
        const decision = guard.decide(url);
        const target = targets.target(targetId);
        const session = targets.sessionFor(targetId);
        if (decision.allowed || target === undefined || session === undefined) {
          return;
        }
        await leave(target, session, url, decision, 'tab', undefined);
      },

      ConfigChangedEvent: async (event) => {
        if (!changesPolicy(event.payload.changed)) {
          return;
        }
        await gate.reconcile();
        await Promise.all(
          targets.pages().map(async (page) => {
            if (page.url === '' || page.url === 'about:blank') {
              return;
            }
            const decision = guard.decide(page.url);
            const session = targets.sessionFor(page.targetId);
            if (!decision.allowed && session !== undefined) {
              await leave(page, session, page.url, decision, 'policy', undefined);
            }
          }),
        );
      },
    };
  },
});
