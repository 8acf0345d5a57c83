import { errorMessageOf } from '../shared/errors';
import type { Logger } from '../shared/logger';
import type { LifecycleBuffer } from './lifecycle';
import type { CdpSession } from './session';
import type { SessionSetup } from './subscriptions';
import { CHILD_TARGET_TYPES, type TargetRecord } from './target';

const CHILD_AUTO_ATTACH_FILTER = CHILD_TARGET_TYPES.map((type) => ({ type, exclude: false }));

/**
 * Prepares a newly attached session: auto-attach inside it (nested OOPIFs and workers, flattened),
 * Page and lifecycle events for pages and frames, crash reports for pages, then every registered setup.
 * A target paused at start is resumed in the same breath. Failed steps are logged, not raised: a
 * short-lived target may vanish mid-setup.
 */
export async function setUpSession(options: {
  session: CdpSession;
  target: TargetRecord;
  isPage: boolean;
  waitingForDebugger: boolean;
  lifecycle: LifecycleBuffer | undefined;
  setups: readonly SessionSetup[];
  log: Logger;
}): Promise<void> {
  const { session, target, isPage, lifecycle } = options;
  const steps: Array<Promise<unknown>> = [
    session.send('Target.setAutoAttach', {
      autoAttach: true,
      waitForDebuggerOnStart: true,
      flatten: true,
      filter: CHILD_AUTO_ATTACH_FILTER,
    }),
  ];
  if (isPage || target.type === 'iframe') {
    steps.push(session.send('Page.enable'), session.send('Page.setLifecycleEventsEnabled', { enabled: true }));
  }
  if (isPage) {
    steps.push(
      session.send('Inspector.enable'),
      session.send('Page.getFrameTree').then(({ frameTree }) => {
        if (lifecycle !== undefined && lifecycle.mainFrame === undefined) {
          lifecycle.setMainFrame(frameTree.frame.loaderId, frameTree.frame.url);
        }
      }),
    );
  }
  for (const setup of options.setups) {
    steps.push(setup(session, target));
  }
  if (options.waitingForDebugger) {
    // Resume without waiting for the setup answers: the session handles commands in order, so the
    // setup is in place before the target runs, and some setup commands (Page.getFrameTree in a new
    // renderer) do not answer until it runs. A missed resume would hang the target for good.
    steps.push(session.send('Runtime.runIfWaitingForDebugger'));
  }
  for (const result of await Promise.allSettled(steps)) {
    if (result.status === 'rejected') {
      options.log.debug('session setup step failed', {
        target: target.targetId,
        type: target.type,
        error: errorMessageOf(result.reason),
      });
    }
  }
}
