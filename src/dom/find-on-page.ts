import type { CdpSession } from '../cdp/session';
import type { SessionManager } from '../cdp/session-manager';
import { errorMessageOf, TabpilotError } from '../shared/errors';
import type { Logger } from '../shared/logger';
import { sleep } from '../shared/time';
import type { DomService } from './dom-service';
import { objectInWorld, pageFunctions } from './page-bridge';
import type {
  FindMatchesOptions,
  FrameMatch,
  FrameMatches,
  PerceptionHandleFunctions,
  PerceptionValueFunctions,
} from './payload';

/** What `find` is asked: a plain text or a regex (validated by the event), and how many matches back. */
export interface FindOnPageOptions {
  text?: string | undefined;
  regex?: string | undefined;
  caseSensitive: boolean;
  maxResults: number;
  /** A returned match (1-based) to scroll into view before answering. */
  scrollTo?: number | undefined;
}

export interface PageMatch {
  match: string;
  index: number;
  tag: string;
  context: string;
  visible: boolean;
  frame: string | null;
}

interface Deps {
  readonly targets: SessionManager;
  readonly dom: DomService;
  readonly log: Logger;
}

/** A frame's match, with the frame's session and world (its element's key) and its box in the tab. */
interface Located {
  match: FrameMatch;
  session: CdpSession;
  contextId: number;
  visible: boolean;
  frame: string | null;
}

const CONTEXT_CHARS = 40;
const OBJECT_GROUP = 'tabpilot-find';
const PAGE = pageFunctions<PerceptionValueFunctions, PerceptionHandleFunctions>({ group: OBJECT_GROUP });
/** An out-of-process frame scrolls its embedders asynchronously: how long the answer waits for it. */
const REVEAL_SETTLE_TRIES = 10;
const REVEAL_SETTLE_MS = 50;

/**
 * Finds a text or a regex in the whole page: the tab's document (with its open shadow roots and
 * same-origin frames, in one in-page pass) and then each out-of-process frame. Each returned match's
 * element gets an index in the page's latest state; with `scrollTo`, that match is scrolled into the
 * middle of the view and the matches are read again, so `visible` tells the page as it is now.
 */
export async function findOnPage(
  deps: Deps,
  targetId: string,
  options: FindOnPageOptions,
): Promise<{ matches: PageMatch[]; total: number }> {
  let found = await locateAll(deps, targetId, options);
  if (options.scrollTo !== undefined) {
    const chosen = found.located[options.scrollTo - 1];
    if (chosen === undefined) {
      throw new TabpilotError(
        'INVALID_PARAMS',
        `scroll_to: there is no match ${options.scrollTo}, only ${found.located.length} (see total)`,
        { details: { field: 'scroll_to' } },
      );
    }
    const revealed = await PAGE.callInContext(chosen.session, chosen.contextId, 'revealMatch', chosen.match.id);
    if (!revealed) {
      throw new TabpilotError(
        'ELEMENT_NOT_FOUND',
        `Match ${options.scrollTo} left the page before it could be scrolled to`,
      );
    }
    found = await locateAll(deps, targetId, options);
    for (let tries = 0; tries < REVEAL_SETTLE_TRIES && !shows(found.located, chosen); tries++) {
      await sleep(REVEAL_SETTLE_MS);
      found = await locateAll(deps, targetId, options);
    }
  }
  return {
    total: found.total,
    matches: found.located.map((located) => ({
      match: located.match.text,
      index: deps.dom.adopt(targetId, found.mainContextId, {
        tag: located.match.tag,
        role: located.match.role,
        name: located.match.name,
        attributes: {},
        box: located.match.box,
        sessionId: located.session.sessionId,
        contextId: located.contextId,
        localId: located.match.id,
      }),
      tag: located.match.tag,
      context: located.match.context,
      visible: located.visible,
      frame: located.frame,
    })),
  };
}

function shows(located: readonly Located[], chosen: Located): boolean {
  return located.some(
    (other) => other.session === chosen.session && other.match.id === chosen.match.id && other.visible,
  );
}

async function locateAll(
  deps: Deps,
  targetId: string,
  options: FindOnPageOptions,
): Promise<{ located: Located[]; total: number; mainContextId: number }> {
  const page = deps.targets.requireSession(targetId);
  const inPage: FindMatchesOptions = {
    text: options.text,
    regex: options.regex,
    caseSensitive: options.caseSensitive,
    limit: options.maxResults,
    contextChars: CONTEXT_CHARS,
  };
  await deps.targets.framesReady(targetId);
  const main = await PAGE.callInFrameWorld(page, 'findMatches', inPage);
  const viewport = { width: main.value.viewportWidth, height: main.value.viewportHeight };
  const located = main.value.matches.map((match) => ({
    match,
    session: page,
    contextId: main.contextId,
    visible: match.visible,
    frame: match.frame,
  }));
  let total = main.value.total;
  for (const child of deps.targets.frameSessionsOf(targetId)) {
    const inFrame = await searchFrame(deps, targetId, page, child, inPage, viewport);
    if (inFrame !== null) {
      located.push(...inFrame.located);
      total += inFrame.total;
    }
  }
  releaseObjects(deps, [page, ...deps.targets.frameSessionsOf(targetId)]);
  return { located: located.slice(0, options.maxResults), total, mainContextId: main.contextId };
}

/** One out-of-process frame's matches, with their boxes moved into the tab's viewport. */
async function searchFrame(
  deps: Deps,
  targetId: string,
  page: CdpSession,
  child: CdpSession,
  inPage: FindMatchesOptions,
  viewport: { width: number; height: number },
): Promise<{ located: Located[]; total: number } | null> {
  let found: { value: FrameMatches; contextId: number };
  let origin: { x: number; y: number };
  try {
    found = await PAGE.callInFrameWorld(child, 'findMatches', inPage);
    origin = await originInTab(deps, targetId, page, child);
  } catch (error) {
    // A frame navigating or closing while asked: its matches are not there to report.
    deps.log.debug('find skipped a frame', { error: errorMessageOf(error) });
    return null;
  }
  const located = found.value.matches.map((match): Located => {
    const x = match.box.x + origin.x;
    const y = match.box.y + origin.y;
    const inTab = x + match.box.width > 0 && y + match.box.height > 0 && x < viewport.width && y < viewport.height;
    return {
      match,
      session: child,
      contextId: found.contextId,
      visible: match.visible && inTab,
      frame: match.frame ?? found.value.url,
    };
  });
  return { located, total: found.value.total };
}

/** Where an out-of-process frame's viewport starts in the tab's, through each embedding frame. */
async function originInTab(
  deps: Deps,
  targetId: string,
  page: CdpSession,
  frame: CdpSession,
): Promise<{ x: number; y: number }> {
  const origin = { x: 0, y: 0 };
  for (let child = frame; child !== page;) {
    const owner = await ownerOf(deps, targetId, page, child);
    const at = await PAGE.callOn(owner.parent, owner.objectId, 'frameContentOrigin');
    origin.x += at.x;
    origin.y += at.y;
    child = owner.parent;
  }
  return origin;
}

async function ownerOf(
  deps: Deps,
  targetId: string,
  page: CdpSession,
  child: CdpSession,
): Promise<{ parent: CdpSession; objectId: string }> {
  for (const parent of [page, ...deps.targets.frameSessionsOf(targetId)]) {
    if (parent === child) {
      continue;
    }
    const owner = await parent
      .send('DOM.getFrameOwner', { frameId: child.targetId })
      .then(({ backendNodeId }) => backendNodeId)
      .catch((error: unknown) => {
        // Not this document's frame: its owner is in another one.
        deps.log.debug('frame owner not in this session', { error: errorMessageOf(error) });
        return null;
      });
    if (owner !== null) {
      return { parent, objectId: await objectInWorld(parent, owner, { group: OBJECT_GROUP }) };
    }
  }
  throw new TabpilotError('ELEMENT_NOT_FOUND', 'The iframe of a frame being searched is gone');
}

function releaseObjects(deps: Deps, sessions: readonly CdpSession[]): void {
  for (const session of sessions) {
    if (!session.detached) {
      void session.send('Runtime.releaseObjectGroup', { objectGroup: OBJECT_GROUP }).catch((error: unknown) => {
        deps.log.debug('could not release find objects', { error: errorMessageOf(error) });
      });
    }
  }
}
