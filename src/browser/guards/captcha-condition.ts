import { TabpilotError } from '../../shared/errors';
import type { CaptchaVendor } from '../../protocol/events/captcha.events';
import { vendorName } from './captcha-detect';
import type { Admission, TabCondition, TabConditions } from './tab-conditions';

export interface CaptchaState {
  readonly vendor: CaptchaVendor;
  readonly kind: 'widget' | 'interstitial';
  readonly url: string;
  readonly since: number;
  /** An external solver announced it is at work (CaptchaSolverStartedEvent). */
  readonly solving: boolean;
}

function personNeeded(tabId: string, state: CaptchaState, waitedMs: number): TabpilotError {
  const what =
    state.kind === 'interstitial'
      ? `a ${vendorName(state.vendor)} challenge page`
      : `a ${vendorName(state.vendor)} challenge`;
  return new TabpilotError(
    'PERSON_NEEDED',
    `Tab ${tabId} shows ${what}: a person must solve it (waited ${Math.round(waitedMs / 1000)} s). Bring the tab forward (the panel's Show tab, or switch {tab_id, activate: true}); actions here resume once it is gone`,
    { details: { tab_id: tabId, vendor: state.vendor, kind: state.kind, url: state.url } },
  );
}

/**
 * A challenge holds the actions on its tab (reads and refresh go through): each waits until the
 * challenge is gone, at most until the hand-off window (`windowMs` from detection) or its own deadline
 * ends, then fails with PERSON_NEEDED; once the window is over they fail at once.
 */
export function captchaCondition(
  tabId: string,
  targetId: string,
  state: CaptchaState,
  conditions: TabConditions,
  windowMs: () => number,
): TabCondition {
  const condition: TabCondition = {
    kind: 'captcha',
    status: state.solving ? 'solving' : 'needs_person',
    reason: state.solving
      ? `A solver is working on the ${vendorName(state.vendor)} challenge; actions on tab ${tabId} wait for it`
      : `Tab ${tabId} shows a ${vendorName(state.vendor)} ${state.kind === 'interstitial' ? 'challenge page' : 'challenge'}: a person must solve it; actions there wait`,
    since: state.since,
    admit: async (gate, admission: Admission) => {
      if (gate !== 'act') {
        return;
      }
      const started = Date.now();
      for (;;) {
        const current = conditions.get(targetId, 'captcha');
        if (current === undefined) {
          return;
        }
        const until = Math.min(state.since + windowMs(), admission.deadline);
        const left = until - Date.now();
        if (left <= 0 || admission.signal.aborted) {
          throw personNeeded(tabId, state, Date.now() - started);
        }
        let timer: ReturnType<typeof setTimeout> | undefined;
        await Promise.race([
          conditions.nextChange(),
          new Promise((resolve) => {
            timer = setTimeout(resolve, left);
          }),
        ]);
        clearTimeout(timer);
      }
    },
  };
  return condition;
}
