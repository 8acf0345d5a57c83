import type { CdpSession } from '../../cdp/session';
import type { WaitForTextEvent } from '../../protocol/actions/navigation.actions';
import type { PayloadOf } from '../../protocol/define-event';
import { TabpilotError } from '../../shared/errors';
import { pollUntil } from '../../shared/time';
import { bestEffort } from '../../shared/logger';
import type { RoutineContext } from './element';
import { handleInFrame } from './in-page-call';

export interface FindTextOutcome {
  found: boolean;
  /** Where it was found: the tab's own document or one of its out-of-process frames. */
  frame: 'page' | 'child' | null;
}

/** The first visible occurrence of a text: the tab's document first, then each out-of-process frame. */
async function firstShown(
  ctx: RoutineContext,
  targetId: string,
  text: string,
): Promise<{ session: CdpSession; objectId: string } | null> {
  for (const session of [ctx.targets.requireSession(targetId), ...ctx.targets.frameSessionsOf(targetId)]) {
    const objectId = await handleInFrame(session, 'findText', text);
    if (objectId !== null) {
      return { session, objectId };
    }
  }
  return null;
}

function release(ctx: RoutineContext, found: { session: CdpSession; objectId: string }): void {
  void bestEffort(
    found.session.send('Runtime.releaseObject', { objectId: found.objectId }),
    ctx.log,
    'releasing a found text',
  );
}

/**
 * Scrolls the first visible occurrence of a text into view: the tab's document (with its open shadow
 * roots and same-origin frames) first, then each out-of-process frame. The text is passed to the page as
 * data; it is never built into a query (browser-use interpolates it into XPath and JavaScript).
 */
export async function scrollToText(ctx: RoutineContext, targetId: string, text: string): Promise<FindTextOutcome> {
  const found = await firstShown(ctx, targetId, text);
  if (found === null) {
    return { found: false, frame: null };
  }
  await found.session.send('DOM.scrollIntoViewIfNeeded', { objectId: found.objectId });
  release(ctx, found);
  return { found: true, frame: found.session.targetId === targetId ? 'page' : 'child' };
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
  const started = Date.now();
  await pollUntil(
    async () => {
      const found = await firstShown(ctx, target_id, text);
      if (found !== null) {
        release(ctx, found);
      }
      return (found !== null) !== gone ? true : undefined;
    },
    {
      timeoutMs: timeout * 1000,
      intervalMs: LOOK_EVERY_MS,
      ...(ctx.signal === undefined ? {} : { signal: ctx.signal }),
      onTimeout: () =>
        new TabpilotError(
          'TIMEOUT',
          `"${text}" ${gone ? 'was still shown' : 'was not shown'} after ${timeout} s: take a state to see the page`,
        ),
    },
  );
  return { target_id, waited_ms: Date.now() - started };
}
