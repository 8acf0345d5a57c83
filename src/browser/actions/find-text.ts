import type { WaitForTextEvent } from '../../protocol/actions/navigation.actions';
import type { PayloadOf } from '../../protocol/define-event';
import { TabpilotError } from '../../shared/errors';
import { sleep } from '../../shared/time';
import { bestEffort } from '../../shared/logger';
import type { RoutineContext } from './element';
import { handleInFrame } from './in-page-call';

export interface FindTextOutcome {
  found: boolean;
  /** Where it was found: the tab's own document or one of its out-of-process frames. */
  frame: 'page' | 'child' | null;
}

/**
 * Scrolls the first visible occurrence of a text into view: the tab's document (with its open shadow
 * roots and same-origin frames) first, then each out-of-process frame. The text is passed to the page as
 * data; it is never built into a query (browser-use interpolates it into XPath and JavaScript).
 */
export async function scrollToText(ctx: RoutineContext, targetId: string, text: string): Promise<FindTextOutcome> {
  const pageSession = ctx.targets.requireSession(targetId);
  for (const session of [pageSession, ...ctx.targets.frameSessionsOf(targetId)]) {
    const found = await handleInFrame(session, 'findText', text);
    if (found !== null) {
      await session.send('DOM.scrollIntoViewIfNeeded', { objectId: found });
      void bestEffort(session.send('Runtime.releaseObject', { objectId: found }), ctx.log, 'releasing a found element');
      return { found: true, frame: session === pageSession ? 'page' : 'child' };
    }
  }
  return { found: false, frame: null };
}

/** How often wait_for_text looks: a text a page shows is seen within a tenth of a second. */
const LOOK_EVERY_MS = 100;

/**
 * Waits until a text is shown (`gone`: until it is shown no more) in the tab's document or any of its
 * frames, looking every 100 ms; answers how long it took. Each look is the find of scrollToText, so what
 * counts as shown is the same (a visible occurrence); a look during a navigation sees the new document
 * once the tab has one. Past the timeout it fails TIMEOUT; the signal (the person's Stop, a client's
 * cancel) ends it at once.
 */
export async function waitForText(
  ctx: RoutineContext,
  { target_id, text, gone, timeout }: PayloadOf<typeof WaitForTextEvent>,
): Promise<{ target_id: string; waited_ms: number }> {
  const timeoutMs = timeout * 1000;
  const started = Date.now();
  for (;;) {
    const shown = await isTextShown(ctx, target_id, text);
    const waited = Date.now() - started;
    if (shown !== gone) {
      return { target_id, waited_ms: waited };
    }
    if (waited >= timeoutMs) {
      const still = gone ? 'was still shown' : 'was not shown';
      throw new TabpilotError('TIMEOUT', `"${text}" ${still} after ${timeout} s: take a state to see the page`);
    }
    await sleep(Math.min(LOOK_EVERY_MS, timeoutMs - waited), ctx.signal);
  }
}

async function isTextShown(ctx: RoutineContext, targetId: string, text: string): Promise<boolean> {
  for (const session of [ctx.targets.requireSession(targetId), ...ctx.targets.frameSessionsOf(targetId)]) {
    const found = await handleInFrame(session, 'findText', text);
    if (found !== null) {
      void bestEffort(session.send('Runtime.releaseObject', { objectId: found }), ctx.log, 'releasing a found text');
      return true;
    }
  }
  return false;
}
