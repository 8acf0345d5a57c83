import type { CdpSession } from '../cdp/session';
import type { SessionManager } from '../cdp/session-manager';
import { errorMessageOf } from '../shared/errors';
import type { Logger } from '../shared/logger';
import type { FrameWorlds } from './frame-worlds';
import type { CollectOptions, CollectResult, ElementLine, Line, PageMetrics } from './payload';
import { unpackCollectResult } from './wire';

/** An element line placed in the page: its frame's session and world, and a box in top-level px. */
export interface PlacedElement extends ElementLine {
  sessionId: string;
  contextId: number;
  /** Where this element's frame starts in the top-level viewport (0,0 for the main frame). */
  frameOffset: [number, number];
}

export type PlacedLine = PlacedElement | Exclude<Line, ElementLine>;

export interface PageCapture {
  lines: PlacedLine[];
  metrics: PageMetrics;
  stats: CollectResult['stats'];
  /** Time spent in the page (all frames), and in total. */
  inPageMs: number;
}

interface CaptureContext {
  readonly targets: SessionManager;
  readonly worlds: FrameWorlds;
  readonly pageTargetId: string;
  readonly stateKey: string;
  readonly options: Omit<CollectOptions, 'baseDepth' | 'markNew'>;
  readonly markNew: boolean;
  readonly log: Logger;
  readonly signal: AbortSignal | undefined;
  inPageMs: number;
  stats: CollectResult['stats'];
  /** Sessions that hold objects of this capture, released when it ends. */
  readonly sessions: Set<CdpSession>;
}

const OBJECT_GROUP = 'tabpilot-capture';

/**
 * Captures a page as lines across processes: the main frame in one in-page pass, then, in parallel,
 * every out-of-process iframe through its own child session and every closed shadow root through CDP
 * (the page cannot open those), each stitched in place with its frame offset.
 */
export async function capturePage(ctx: Omit<CaptureContext, 'inPageMs' | 'stats' | 'sessions'>): Promise<PageCapture> {
  const context: CaptureContext = {
    ...ctx,
    inPageMs: 0,
    stats: { elements: 0, interactive: 0, iframes: 0, shadowRoots: 0, images: 0, links: 0 },
    sessions: new Set(),
  };
  const session = ctx.targets.requireSession(ctx.pageTargetId);
  try {
    const { lines, metrics } = await captureDocument(context, session, ctx.pageTargetId, 0, [0, 0]);
    return { lines, metrics, stats: context.stats, inPageMs: context.inPageMs };
  } finally {
    for (const holder of context.sessions) {
      void holder.send('Runtime.releaseObjectGroup', { objectGroup: OBJECT_GROUP }).catch((error: unknown) => {
        ctx.log.debug('could not release capture objects', { error: errorMessageOf(error) });
      });
    }
  }
}

async function captureDocument(
  ctx: CaptureContext,
  session: CdpSession,
  frameId: string,
  baseDepth: number,
  offset: [number, number],
): Promise<{ lines: PlacedLine[]; metrics: PageMetrics }> {
  const options: CollectOptions = { ...ctx.options, baseDepth, markNew: ctx.markNew };
  const { value: packed, contextId } = await ctx.worlds.evaluate<string>(
    session,
    frameId,
    `__tabpilot.collect(document, ${JSON.stringify(options)}, ${JSON.stringify(ctx.stateKey)})`,
    ctx.signal,
  );
  const value = unpackCollectResult(packed);
  account(ctx, value);
  const lines = await expand(ctx, session, contextId, value.lines, offset);
  return { lines, metrics: value.metrics };
}

function account(ctx: CaptureContext, result: CollectResult): void {
  ctx.inPageMs += result.elapsedMs;
  for (const key of Object.keys(ctx.stats) as Array<keyof CollectResult['stats']>) {
    ctx.stats[key] += result.stats[key];
  }
}

/** Places a frame's lines and splices in what lives elsewhere (remote frames, closed roots). */
async function expand(
  ctx: CaptureContext,
  session: CdpSession,
  contextId: number,
  lines: Line[],
  offset: [number, number],
): Promise<PlacedLine[]> {
  const placed: PlacedLine[] = lines.map((line) => {
    if (line.kind === 'element') {
      const element: PlacedElement = {
        ...line,
        box: [line.box[0] + offset[0], line.box[1] + offset[1], line.box[2], line.box[3]],
        sessionId: session.sessionId,
        contextId,
        frameOffset: offset,
      };
      return element;
    }
    return line;
  });
  const out: PlacedLine[] = [];
  const pending: Array<{ at: number; lines: Promise<PlacedLine[]> }> = [];
  for (const [index, line] of lines.entries()) {
    if (line.kind === 'element' && line.frame === 'remote' && line.id !== undefined && line.frameOrigin !== null) {
      const origin: [number, number] = [line.frameOrigin[0] + offset[0], line.frameOrigin[1] + offset[1]];
      pending.push({ at: index, lines: captureRemoteFrame(ctx, session, contextId, line.id, line.depth + 1, origin) });
    } else if (line.kind === 'closed-host') {
      pending.push({ at: index, lines: captureClosedRoots(ctx, session, contextId, line.id, line.depth, offset) });
    }
  }
  const inserts = new Map<number, PlacedLine[]>();
  await Promise.all(pending.map(async ({ at, lines: promise }) => inserts.set(at, await promise)));
  for (const [index, line] of placed.entries()) {
    if (line.kind !== 'closed-host') {
      out.push(line);
    }
    const extra = inserts.get(index);
    if (extra !== undefined) {
      out.push(...extra);
    }
  }
  return out;
}

async function elementObject(
  ctx: CaptureContext,
  session: CdpSession,
  contextId: number,
  id: number,
): Promise<string | undefined> {
  ctx.sessions.add(session);
  const { result } = await session.send('Runtime.evaluate', {
    expression: `__tabpilot.resolve(${id})`,
    contextId,
    objectGroup: OBJECT_GROUP,
  });
  return result.subtype === 'null' ? undefined : result.objectId;
}

/** An OOPIF: find its child session by the iframe's frame id and capture it there. */
async function captureRemoteFrame(
  ctx: CaptureContext,
  session: CdpSession,
  contextId: number,
  iframeId: number,
  depth: number,
  origin: [number, number],
): Promise<PlacedLine[]> {
  try {
    const objectId = await elementObject(ctx, session, contextId, iframeId);
    if (objectId === undefined) {
      return [];
    }
    const { node } = await session.send('DOM.describeNode', { objectId });
    const frameId = node.frameId;
    const child = frameId === undefined ? undefined : ctx.targets.sessionFor(frameId);
    if (frameId === undefined || child === undefined) {
      return [{ kind: 'text', depth, text: '(frame content not available yet)' }];
    }
    const { lines } = await captureDocument(ctx, child, frameId, depth, origin);
    return lines;
  } catch (error) {
    ctx.log.debug('remote frame capture failed', { error: errorMessageOf(error) });
    return [{ kind: 'text', depth, text: '(frame content not available)' }];
  }
}

/** Closed shadow roots: CDP sees them (pierce); our world walks them from their object. */
async function captureClosedRoots(
  ctx: CaptureContext,
  session: CdpSession,
  contextId: number,
  hostId: number,
  depth: number,
  offset: [number, number],
): Promise<PlacedLine[]> {
  try {
    const objectId = await elementObject(ctx, session, contextId, hostId);
    if (objectId === undefined) {
      return [];
    }
    const { node } = await session.send('DOM.describeNode', { objectId, depth: 1, pierce: true });
    const closed = (node.shadowRoots ?? []).filter((root) => root.shadowRootType === 'closed');
    const out: PlacedLine[] = [];
    for (const root of closed) {
      const resolved = await session.send('DOM.resolveNode', {
        backendNodeId: root.backendNodeId,
        executionContextId: contextId,
        objectGroup: OBJECT_GROUP,
      });
      if (resolved.object.objectId === undefined) {
        continue;
      }
      const options: CollectOptions = { ...ctx.options, baseDepth: depth, markNew: ctx.markNew };
      const response = await session.send('Runtime.callFunctionOn', {
        functionDeclaration: 'function (options, key) { return globalThis.__tabpilot.collect(this, options, key); }',
        objectId: resolved.object.objectId,
        arguments: [{ value: options }, { value: ctx.stateKey }],
        returnByValue: true,
      });
      const result = unpackCollectResult(response.result.value as string);
      account(ctx, result);
      out.push(...(await expand(ctx, session, contextId, result.lines, offset)));
    }
    return out;
  } catch (error) {
    ctx.log.debug('closed shadow root capture failed', { error: errorMessageOf(error) });
    return [];
  }
}
