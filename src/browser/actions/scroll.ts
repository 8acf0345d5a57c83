import type { CdpSession } from '../../cdp/session';
import { TabpilotError } from '../../shared/errors';
import type { ElementHandle, RoutineContext } from './element';
import type { ScrollOutcome, ScrollRequest } from './in-page-api';
import { callInFrame, callOn } from './in-page-call';

export type ScrollResult = Extract<ScrollOutcome, { kind: 'scrolled' }>;

/**
 * Scrolls the page in any direction, synchronously in the page (browser-use's synthesizeScrollGesture
 * waits for rendered frames, which background tabs do not produce, and its left and right scroll up).
 * When the document itself does not scroll, what sits under the viewport's centre does, as a wheel would.
 */
export async function scrollPage(pageSession: CdpSession, request: ScrollRequest): Promise<ScrollResult> {
  return expectScrolled(await callInFrame(pageSession, 'scrollPage', request));
}

/**
 * Scrolls an element's nearest scroll container that has room in that direction (the element itself,
 * then its ancestors), or the document of an iframe element (an OOPIF's through its own session), or
 * the page when nothing around the element scrolls.
 */
export async function scrollElement(
  ctx: RoutineContext,
  handle: ElementHandle,
  request: ScrollRequest,
): Promise<ScrollResult> {
  const outcome = await callOn(handle.session, handle.objectId, 'scrollElement', request);
  if (outcome.kind === 'scrolled') {
    return outcome;
  }
  const { backendNodeId } = (await handle.session.send('DOM.describeNode', { objectId: handle.objectId })).node;
  return scrollPage(await frameSessionOf(ctx, handle, backendNodeId), request);
}

/** The session of the out-of-process frame an iframe element shows. */
async function frameSessionOf(ctx: RoutineContext, handle: ElementHandle, backendNodeId: number): Promise<CdpSession> {
  for (const session of ctx.targets.frameSessionsOf(handle.targetId)) {
    try {
      const owner = await handle.session.send('DOM.getFrameOwner', { frameId: session.targetId });
      if (owner.backendNodeId === backendNodeId) {
        return session;
      }
    } catch (error) {
      // This frame is embedded by another document: keep looking.
      ctx.log.debug('frame not owned here', { error: String(error) });
    }
  }
  throw new TabpilotError('ELEMENT_NOT_FOUND', `The frame ${handle.label} shows is not attached (take a new state)`);
}

function expectScrolled(outcome: ScrollOutcome): ScrollResult {
  if (outcome.kind !== 'scrolled') {
    throw new TabpilotError('INTERNAL', 'a page scroll reported a remote frame');
  }
  return outcome;
}
