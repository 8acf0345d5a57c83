import type { SessionManager } from '../../../src/cdp/session-manager';
import type { CdpSession } from '../../../src/cdp/session';

/** An execution context that exists now: its frame, and its world's name ('' for the page's own). */
export interface LiveContext {
  frame_id: string;
  name: string;
}

/** What follows the contexts; `live` lists the ones that still exist, `stop` lets go. */
export interface ContextFollower {
  live(): Promise<LiveContext[]>;
  stop(): Promise<void>;
}

/**
 * Follows the execution contexts tabpilot's own sessions report: Runtime is on in every page and frame
 * session (the console follower enables it), so every context made from now on is announced, its world
 * named. A context goes when it is destroyed, when its session's contexts are cleared (a new document
 * of the page) or when its session goes (an out-of-process frame's).
 */
export function followContexts(targets: SessionManager): ContextFollower {
  const contexts = new Map<string, LiveContext & { session: CdpSession }>();
  const key = (session: CdpSession, id: number): string => `${session.sessionId}:${id}`;
  const offs = [
    targets.on('Runtime.executionContextCreated', ({ context }, { session }) => {
      const frame: unknown = context.auxData?.['frameId'];
      contexts.set(key(session, context.id), {
        session,
        frame_id: typeof frame === 'string' ? frame : '',
        name: context.name,
      });
    }),
    targets.on('Runtime.executionContextDestroyed', ({ executionContextId }, { session }) => {
      contexts.delete(key(session, executionContextId));
    }),
    targets.on('Runtime.executionContextsCleared', (_params, { session }) => {
      for (const [id, context] of contexts) {
        if (context.session === session) {
          contexts.delete(id);
        }
      }
    }),
  ];
  return {
    live: async () =>
      [...contexts.values()]
        .filter((context) => !context.session.detached)
        .map(({ frame_id, name }) => ({ frame_id, name })),
    stop: async () => offs.forEach((off) => off()),
  };
}

/** The same follower in the extension's worker, over its SessionManager (evaluated there as it is written). */
export const FOLLOW_CONTEXTS_IN_WORKER = `(() => {
  const targets = globalThis.tabpilot.session.targets;
  const contexts = new Map();
  const key = (session, id) => session.sessionId + ':' + id;
  const offs = [
    targets.on('Runtime.executionContextCreated', ({ context }, { session }) => {
      const frame = context.auxData && context.auxData.frameId;
      contexts.set(key(session, context.id), { session, frame_id: typeof frame === 'string' ? frame : '', name: context.name });
    }),
    targets.on('Runtime.executionContextDestroyed', ({ executionContextId }, { session }) => {
      contexts.delete(key(session, executionContextId));
    }),
    targets.on('Runtime.executionContextsCleared', (_params, { session }) => {
      for (const [id, context] of contexts) if (context.session === session) contexts.delete(id);
    }),
  ];
  globalThis.__e2eContexts = {
    live: () => [...contexts.values()].filter((context) => !context.session.detached).map(({ frame_id, name }) => ({ frame_id, name })),
    stop: () => offs.forEach((off) => off()),
  };
  return true;
})()`;
