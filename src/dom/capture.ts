import type { CdpSession } from '../cdp/session';
import type { SessionManager } from '../cdp/session-manager';
import { errorMessageOf } from '../shared/errors';
import type { Logger } from '../shared/logger';
import { objectInWorld, pageFunctions } from './page-bridge';
import type {
  CollectOptions,
  CollectResult,
  CollectStats,
  PageMetrics,
  PerceptionHandleFunctions,
  PerceptionValueFunctions,
} from './payload';
import { extraOf, idOf, isElementLine, type PackedLine } from './wire';

/** The frame a captured line belongs to: its session and world (an element key needs both). */
export interface CapturedFrame {
  sessionId: string;
  contextId: number;
}

/**
 * A page as lines across its processes, in document order: each line in wire form (element boxes moved
 * into the tab's viewport), and beside it the index of its frame in `frames`.
 */
export interface PageCapture {
  lines: PackedLine[];
  frameOf: number[];
  frames: CapturedFrame[];
  metrics: PageMetrics;
  stats: CollectStats;
  /** The world of the tab's main frame: a new one means a new document. */
  mainContextId: number;
  /** Time spent in the page (all frames). */
  inPageMs: number;
  /** A walk stopped at the character budget: the page goes on past the lines. */
  cut: boolean;
}

interface CaptureContext {
  readonly targets: SessionManager;
  readonly pageTargetId: string;
  readonly stateKey: string;
  readonly options: Omit<CollectOptions, 'baseDepth' | 'markNew'>;
  readonly markNew: boolean;
  readonly log: Logger;
  readonly signal: AbortSignal | undefined;
  inPageMs: number;
  cut: boolean;
  stats: CollectStats;
  frames: CapturedFrame[];
  /** Sessions that hold objects of this capture, released when it ends. */
  readonly sessions: Set<CdpSession>;
}

/** Lines of one frame and the frames stitched into it, with each line's frame index. */
interface Captured {
  lines: PackedLine[];
  frameOf: number[];
}

const OBJECT_GROUP = 'tabpilot-capture';

function calls(ctx: CaptureContext) {
  return pageFunctions<PerceptionValueFunctions, PerceptionHandleFunctions>({
    signal: ctx.signal,
    group: OBJECT_GROUP,
  });
}

/**
 * Captures a page as lines across processes: the main frame in one in-page pass, then, in parallel,
 * every out-of-process iframe through its own child session and every closed shadow root through CDP
 * (the page cannot open those), each stitched in place with its frame offset.
 */
export async function capturePage(
  ctx: Omit<CaptureContext, 'inPageMs' | 'cut' | 'stats' | 'sessions' | 'frames'>,
): Promise<PageCapture> {
  const context: CaptureContext = {
    ...ctx,
    inPageMs: 0,
    cut: false,
    stats: { elements: 0, interactive: 0, iframes: 0, shadowRoots: 0, images: 0, links: 0 },
    frames: [],
    sessions: new Set(),
  };
  const session = ctx.targets.requireSession(ctx.pageTargetId);
  await ctx.targets.framesReady(ctx.pageTargetId);
  try {
    const { captured, metrics, contextId } = await captureDocument(context, session, 0, [0, 0]);
    return {
      ...captured,
      frames: context.frames,
      metrics,
      stats: context.stats,
      mainContextId: contextId,
      inPageMs: context.inPageMs,
      cut: context.cut,
    };
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
  baseDepth: number,
  offset: [number, number],
): Promise<{ captured: Captured; metrics: PageMetrics; contextId: number }> {
  const options: CollectOptions = { ...ctx.options, baseDepth, markNew: ctx.markNew };
  const { value: json, contextId } = await calls(ctx).callInFrameWorld(session, 'collect', options, ctx.stateKey);
  const result = JSON.parse(json) as CollectResult;
  account(ctx, result);
  const frame = ctx.frames.push({ sessionId: session.sessionId, contextId }) - 1;
  const captured = await expand(ctx, session, frame, result.lines, offset);
  return { captured, metrics: result.metrics, contextId };
}

function account(ctx: CaptureContext, result: CollectResult): void {
  ctx.inPageMs += result.elapsedMs;
  ctx.cut ||= result.cut;
  for (const key of Object.keys(ctx.stats) as Array<keyof CollectStats>) {
    ctx.stats[key] += result.stats[key];
  }
}

/** Places a frame's lines (boxes into the tab's viewport) and splices in what lives elsewhere. */
async function expand(
  ctx: CaptureContext,
  session: CdpSession,
  frame: number,
  lines: PackedLine[],
  offset: [number, number],
): Promise<Captured> {
  const pending: Array<{ at: number; lines: Promise<Captured> }> = [];
  // Index loops, not entries(): a whole page has tens of thousands of lines, and a pair per line is garbage.
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index];
    if (line === undefined) {
      continue;
    }
    if (isElementLine(line)) {
      line[8] += offset[0];
      line[9] += offset[1];
      const { frame: kind, frameOrigin } = extraOf(line);
      const id = idOf(line);
      if (kind === 'remote' && id !== undefined && frameOrigin !== null) {
        const origin: [number, number] = [frameOrigin[0] + offset[0], frameOrigin[1] + offset[1]];
        pending.push({ at: index, lines: captureRemoteFrame(ctx, session, frame, id, line[1] + 1, origin) });
      }
    } else if (line[0] === 2) {
      pending.push({ at: index, lines: captureClosedRoots(ctx, session, frame, line[2], line[1], offset) });
    }
  }
  if (pending.length === 0) {
    // Nothing lives elsewhere (no other process, no closed root): the frame's lines are the capture.
    return { lines, frameOf: new Array<number>(lines.length).fill(frame) };
  }
  const inserts = new Map<number, Captured>();
  await Promise.all(pending.map(async ({ at, lines: promise }) => inserts.set(at, await promise)));
  const out: Captured = { lines: [], frameOf: [] };
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index];
    if (line !== undefined && line[0] !== 2) {
      out.lines.push(line);
      out.frameOf.push(frame);
    }
    const extra = inserts.get(index);
    if (extra !== undefined) {
      out.lines.push(...extra.lines);
      out.frameOf.push(...extra.frameOf);
    }
  }
  return out;
}

function noteLine(frame: number, depth: number, text: string): Captured {
  return { lines: [[0, depth, text]], frameOf: [frame] };
}

/** An OOPIF: find its child session by the iframe's frame id and capture it there. */
async function captureRemoteFrame(
  ctx: CaptureContext,
  session: CdpSession,
  frame: number,
  iframeId: number,
  depth: number,
  origin: [number, number],
): Promise<Captured> {
  try {
    ctx.sessions.add(session);
    const objectId = await calls(ctx).handleInFrame(session, 'resolve', iframeId);
    if (objectId === null) {
      return { lines: [], frameOf: [] };
    }
    const { node } = await session.send('DOM.describeNode', { objectId });
    const frameId = node.frameId;
    const child = frameId === undefined ? undefined : ctx.targets.sessionFor(frameId);
    if (frameId === undefined || child === undefined) {
      return noteLine(frame, depth, '(frame content not available yet)');
    }
    return (await captureDocument(ctx, child, depth, origin)).captured;
  } catch (error) {
    ctx.log.debug('remote frame capture failed', { error: errorMessageOf(error) });
    return noteLine(frame, depth, '(frame content not available)');
  }
}

/** Closed shadow roots: CDP sees them (pierce); our world walks them from their object. */
async function captureClosedRoots(
  ctx: CaptureContext,
  session: CdpSession,
  frame: number,
  hostId: number,
  depth: number,
  offset: [number, number],
): Promise<Captured> {
  const out: Captured = { lines: [], frameOf: [] };
  try {
    ctx.sessions.add(session);
    const objectId = await calls(ctx).handleInFrame(session, 'resolve', hostId);
    if (objectId === null) {
      return out;
    }
    const { node } = await session.send('DOM.describeNode', { objectId, depth: 1, pierce: true });
    const closed = (node.shadowRoots ?? []).filter((root) => root.shadowRootType === 'closed');
    for (const root of closed) {
      const rootObject = await objectInWorld(session, root.backendNodeId, { group: OBJECT_GROUP });
      const options: CollectOptions = { ...ctx.options, baseDepth: depth, markNew: ctx.markNew };
      const result = JSON.parse(
        await calls(ctx).callOn(session, rootObject, 'collect', options, ctx.stateKey),
      ) as CollectResult;
      account(ctx, result);
      const expanded = await expand(ctx, session, frame, result.lines, offset);
      out.lines.push(...expanded.lines);
      out.frameOf.push(...expanded.frameOf);
    }
    return out;
  } catch (error) {
    ctx.log.debug('closed shadow root capture failed', { error: errorMessageOf(error) });
    return out;
  }
}
