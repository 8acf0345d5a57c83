import type { CdpSession } from '../../cdp/session';
import { TabpilotError, isTabpilotError } from '../../shared/errors';
import type { ElementHandle, RoutineContext } from './element';
import { objectInWorld } from '../../dom/page-bridge';
import { callOn } from './in-page-call';

/**
 * Out-of-process iframes: a point in an OOPIF's viewport is moved into the tab's viewport through each
 * embedding frame, using where the iframe element is now (read at action time, not at state time: the
 * page may have scrolled since), and at each level the iframe itself must be what the embedding document
 * hit-tests there: an overlay in the parent covering the iframe is an occlusion too.
 */

interface FrameOwner {
  /** The session of the document that embeds the frame. */
  parent: CdpSession;
  /** The iframe element, in tabpilot's world of that document. */
  objectId: string;
}

/** Who embeds an OOPIF session, kept by that session (found once; the owner element lives as long as the frame). */
class KnownOwner {
  value: FrameOwner | undefined;
}

async function findOwner(ctx: RoutineContext, handle: ElementHandle, child: CdpSession): Promise<FrameOwner> {
  const candidates = [
    handle.pageSession,
    ...ctx.targets
      .childrenOf(handle.targetId)
      .map((target) => ctx.targets.sessionFor(target.targetId))
      .filter((session): session is CdpSession => session !== undefined && session !== child),
  ];
  for (const parent of candidates) {
    let backendNodeId: number;
    try {
      ({ backendNodeId } = await parent.send('DOM.getFrameOwner', { frameId: child.targetId }));
    } catch (error) {
      // Not this document's frame: the owner is in another one.
      ctx.log.debug('frame owner not in this session', { error: String(error) });
      continue;
    }
    const owner = { parent, objectId: await objectInWorld(parent, backendNodeId) };
    child.own(KnownOwner).value = owner;
    return owner;
  }
  throw new TabpilotError('ELEMENT_NOT_FOUND', `The frame of ${handle.label} is gone (take a new state)`);
}

async function hitThroughOwner(
  ctx: RoutineContext,
  handle: ElementHandle,
  child: CdpSession,
  x: number,
  y: number,
): Promise<{ owner: FrameOwner; hit: { cover: string | null; x: number; y: number } }> {
  const known = child.own(KnownOwner).value;
  if (known !== undefined && !known.parent.detached) {
    try {
      return { owner: known, hit: await callOn(known.parent, known.objectId, 'frameHit', x, y) };
    } catch (error) {
      if (!isTabpilotError(error) || error.code !== 'ELEMENT_NOT_FOUND') {
        throw error;
      }
      // The embedding document navigated since: find the owner again.
      child.own(KnownOwner).value = undefined;
    }
  }
  const owner = await findOwner(ctx, handle, child);
  return { owner, hit: await callOn(owner.parent, owner.objectId, 'frameHit', x, y) };
}

/**
 * Moves a point from the element's frame to the tab's viewport. Returns the tab-level point, or throws
 * ELEMENT_OCCLUDED naming what covers the frame.
 */
export async function toTabPoint(
  ctx: RoutineContext,
  handle: ElementHandle,
  element: string,
  point: { x: number; y: number },
): Promise<{ x: number; y: number }> {
  let { x, y } = point;
  let child = handle.session;
  while (child !== handle.pageSession) {
    const { owner, hit } = await hitThroughOwner(ctx, handle, child, x, y);
    if (hit.cover !== null) {
      throw new TabpilotError(
        'ELEMENT_OCCLUDED',
        `${handle.label} ${element} is inside a frame covered by ${hit.cover}: the pointer would land on that instead`,
        { details: { cover: hit.cover, element } },
      );
    }
    ({ x, y } = hit);
    child = owner.parent;
  }
  return { x, y };
}
