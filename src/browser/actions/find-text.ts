import type { CdpSession } from '../../cdp/session';
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
  const frames = ctx.targets
    .childrenOf(targetId)
    .filter((child) => child.type === 'iframe')
    .map((child) => ctx.targets.sessionFor(child.targetId))
    .filter((session): session is CdpSession => session !== undefined);
  for (const session of [pageSession, ...frames]) {
    const found = await handleInFrame(session, 'findText', text);
    if (found !== null) {
      await session.send('DOM.scrollIntoViewIfNeeded', { objectId: found });
      void bestEffort(session.send('Runtime.releaseObject', { objectId: found }), ctx.log, 'releasing a found element');
      return { found: true, frame: session === pageSession ? 'page' : 'child' };
    }
  }
  return { found: false, frame: null };
}
