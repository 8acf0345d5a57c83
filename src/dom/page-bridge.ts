import type { CdpSession } from '../cdp/session';
import { describeException, isStaleReference } from '../cdp/errors';
import type { Protocol } from '../protocol/cdp';
import { TabpilotError } from '../shared/errors';
import { uuid7 } from '../shared/ids';
import { PAGE_GLOBAL, PAGE_SOURCE, PAGE_VERSION } from './generated/page-source';

/**
 * The one bridge into the page. Every frame session (a tab, or an out-of-process iframe) gets one
 * isolated world, `__tabpilot`, made on first use: the page's scripts cannot see or change what runs
 * there, and it keeps what the in-page code remembers between calls (the element ids that keep indexes
 * stable, a pointer guard). The in-page code (src/dom/in-page and src/browser/actions/in-page, bundled
 * once by scripts/build-inpage.mjs) installs itself there on first use and is versioned by the hash of
 * its bundle. Calls are typed by the function maps of each side's contract and pass their arguments
 * as data (one JSON string argument; nothing is spliced into a script): one round trip, two the first time in a
 * document.
 */

/** Functions that return plain values: their arguments and result. */
export type ValueFunctions<V> = { [K in keyof V]: { args: readonly unknown[]; result: unknown } };
/** Functions that return an element (the caller gets an object id in the world): their arguments. */
export type HandleFunctions<H> = { [K in keyof H]: readonly unknown[] };

/** The name of tabpilot's isolated world in every frame (a CDP binding can be given to it alone). */
export const WORLD_NAME = '__tabpilot';
const MISSING = '__tabpilot_missing';
const STALE = '__tabpilot_stale_world';
const WORLD_TOKEN = '__tabpilotWorld';

/**
 * Runs an in-page function by name. In a frame's world it first checks the world's token: a context id
 * kept from before a cross-process navigation may name another context of the new process (even the
 * page's own world), and tabpilot code must never run there.
 */
const CALL = `function(name, args, version, token) {
  if (token !== '' && globalThis.${WORLD_TOKEN} !== token) { return ${JSON.stringify(STALE)}; }
  const api = globalThis.${PAGE_GLOBAL};
  if (api === undefined || api.version !== version) { return ${JSON.stringify(MISSING)}; }
  return api[name].apply(this, JSON.parse(args));
}`;
const INSTALL = `function(token) { ${PAGE_SOURCE}; if (token !== '') { globalThis.${WORLD_TOKEN} = token; } return true; }`;

interface World {
  contextId: number;
  token: string;
}

/**
 * The world of each frame session; a session's frame is its target (a page or an OOPIF). Worlds of
 * sessions that went away (closed tabs, gone frames, an old connection) are dropped whenever a world
 * is made and by pruneWorlds(), so the map holds live frames only.
 */
const worlds = new Map<CdpSession, World>();

/** Drops the worlds of detached sessions. */
export function pruneWorlds(): void {
  for (const session of worlds.keys()) {
    if (session.detached) {
      worlds.delete(session);
    }
  }
}

/**
 * Forgets the session's world, so the next call makes a new one: a binding added to the world's name
 * reaches the worlds made after it.
 */
export function forgetWorld(session: CdpSession): void {
  worlds.delete(session);
}

/** How many worlds are held in this process (a debug figure: one per live page and out-of-process frame looked into). */
export function worldCount(): number {
  pruneWorlds();
  return worlds.size;
}

export interface CallOptions {
  signal?: AbortSignal | undefined;
  /** Object group for returned handles (released together by the caller). */
  group?: string | undefined;
}

type Where = { objectId: string } | { frame: true } | { contextId: number };

/** In-page code threw (a bad selector or pattern from the caller, or a bug): its first line says what. */
export class InPageError extends TabpilotError {
  constructor(name: string, details: Protocol.Runtime.ExceptionDetails) {
    const description = describeException(details);
    super('INTERNAL', `in-page ${name} failed: ${description.split('\n')[0] ?? description}`);
    this.name = 'InPageError';
  }
}

function failure(name: string, details: Protocol.Runtime.ExceptionDetails): InPageError {
  return new InPageError(name, details);
}

function gone(): TabpilotError {
  return new TabpilotError(
    'ELEMENT_NOT_FOUND',
    'The element is no longer on the page (it navigated or changed): take a new state',
  );
}

async function createWorld(session: CdpSession, options: CallOptions): Promise<World> {
  const { executionContextId } = await session.call(
    'Page.createIsolatedWorld',
    { frameId: session.targetId, worldName: WORLD_NAME, grantUniveralAccess: false },
    { signal: options.signal },
  );
  const world = { contextId: executionContextId, token: uuid7() };
  const installed = await session.call(
    'Runtime.callFunctionOn',
    { functionDeclaration: INSTALL, executionContextId: world.contextId, arguments: [{ value: world.token }] },
    { signal: options.signal },
  );
  if (installed.exceptionDetails !== undefined) {
    throw failure('installing', installed.exceptionDetails);
  }
  pruneWorlds();
  worlds.set(session, world);
  return world;
}

async function worldOf(session: CdpSession, options: CallOptions): Promise<World> {
  return worlds.get(session) ?? createWorld(session, options);
}

/** Calls `name`; in a frame, also says which world ran it (the document's context). */
async function invoke(
  session: CdpSession,
  where: Where,
  name: string,
  args: readonly unknown[],
  returnByValue: boolean,
  options: CallOptions,
): Promise<{ result: Protocol.Runtime.RemoteObject; contextId: number | null }> {
  for (let attempt = 0; attempt < 3; attempt++) {
    let target: { objectId: string } | { executionContextId: number };
    // An empty token skips the world check (an object's own world is known); null would not survive
    // chrome.debugger, which drops null arguments.
    let token = '';
    let contextId: number | null = null;
    if ('objectId' in where) {
      target = { objectId: where.objectId };
    } else if ('contextId' in where) {
      const world = worlds.get(session);
      if (world?.contextId !== where.contextId) {
        throw gone();
      }
      ({ contextId, token } = world);
      target = { executionContextId: contextId };
    } else {
      const world = await worldOf(session, options);
      ({ contextId, token } = world);
      target = { executionContextId: contextId };
    }
    let response: Protocol.Runtime.CallFunctionOnResponse;
    try {
      response = await session.call(
        'Runtime.callFunctionOn',
        {
          functionDeclaration: CALL,
          ...target,
          // Arguments travel as one JSON string: chrome.debugger drops nulls anywhere in a call's values.
          arguments: [{ value: name }, { value: JSON.stringify(args) }, { value: PAGE_VERSION }, { value: token }],
          returnByValue,
          awaitPromise: true,
          ...(options.group === undefined ? {} : { objectGroup: options.group }),
        },
        { signal: options.signal },
      );
    } catch (error) {
      if (!isStaleReference(error)) {
        throw error;
      }
      if ('frame' in where) {
        worlds.delete(session);
        continue;
      }
      throw gone();
    }
    if (response.exceptionDetails !== undefined) {
      throw failure(name, response.exceptionDetails);
    }
    const value: unknown = response.result.value;
    if (value === STALE) {
      worlds.delete(session);
      if (!('frame' in where)) {
        throw gone();
      }
    } else if (value === MISSING) {
      const installed = await session.call(
        'Runtime.callFunctionOn',
        { functionDeclaration: INSTALL, ...target, arguments: [{ value: token }] },
        { signal: options.signal },
      );
      if (installed.exceptionDetails !== undefined) {
        throw failure(`${name} (installing)`, installed.exceptionDetails);
      }
    } else {
      return { result: response.result, contextId };
    }
  }
  throw new TabpilotError('INTERNAL', `in-page ${name}: could not install tabpilot's code in the page`);
}

/**
 * The calls of one side's contract. `On` calls run with `this` = an object of the world (an element, a
 * shadow root); `InFrame` calls with `this` = the world's global, in the frame of the session;
 * `InContext` calls only in the world that was current when the context id was read (an index of a
 * state is an id of that document's world), or fail with ELEMENT_NOT_FOUND.
 */
export interface PageFunctions<V extends ValueFunctions<V>, H extends HandleFunctions<H>> {
  callOn: <K extends keyof V & string>(
    session: CdpSession,
    objectId: string,
    name: K,
    ...args: V[K]['args']
  ) => Promise<V[K]['result']>;
  callInFrame: <K extends keyof V & string>(
    session: CdpSession,
    name: K,
    ...args: V[K]['args']
  ) => Promise<V[K]['result']>;
  /** A frame call that also returns the id of the world's context that ran it. */
  callInFrameWorld: <K extends keyof V & string>(
    session: CdpSession,
    name: K,
    ...args: V[K]['args']
  ) => Promise<{ value: V[K]['result']; contextId: number }>;
  callInContext: <K extends keyof V & string>(
    session: CdpSession,
    contextId: number,
    name: K,
    ...args: V[K]['args']
  ) => Promise<V[K]['result']>;
  handleOn: <K extends keyof H & string>(
    session: CdpSession,
    objectId: string,
    name: K,
    ...args: H[K]
  ) => Promise<string | null>;
  handleInFrame: <K extends keyof H & string>(session: CdpSession, name: K, ...args: H[K]) => Promise<string | null>;
  handleInContext: <K extends keyof H & string>(
    session: CdpSession,
    contextId: number,
    name: K,
    ...args: H[K]
  ) => Promise<string | null>;
  /** The same calls with a cancel signal or an object group. */
  with: (options: CallOptions) => PageFunctions<V, H>;
}

/** The typed calls of a contract (the functions of both sides live in the same world and bundle). */
export function pageFunctions<V extends ValueFunctions<V>, H extends HandleFunctions<H>>(
  options: CallOptions = {},
): PageFunctions<V, H> {
  const value = async (session: CdpSession, where: Where, name: string, args: readonly unknown[]): Promise<never> =>
    (await invoke(session, where, name, args, true, options)).result.value as never;
  const handle = async (session: CdpSession, where: Where, name: string, args: readonly unknown[]) => {
    const { result } = await invoke(session, where, name, args, false, options);
    return result.subtype === 'null' || result.objectId === undefined ? null : result.objectId;
  };
  return {
    callOn: (session, objectId, name, ...args) => value(session, { objectId }, name, args),
    callInFrame: (session, name, ...args) => value(session, { frame: true }, name, args),
    callInFrameWorld: async (session, name, ...args) => {
      const { result, contextId } = await invoke(session, { frame: true }, name, args, true, options);
      return { value: result.value as never, contextId: contextId ?? 0 };
    },
    callInContext: (session, contextId, name, ...args) => value(session, { contextId }, name, args),
    handleOn: (session, objectId, name, ...args) => handle(session, { objectId }, name, args),
    handleInFrame: (session, name, ...args) => handle(session, { frame: true }, name, args),
    handleInContext: (session, contextId, name, ...args) => handle(session, { contextId }, name, args),
    with: (more) => pageFunctions<V, H>({ ...options, ...more }),
  };
}

/** A handle, in the frame's world, on a node known by its backend id (an iframe's owner element, a closed shadow root). */
export async function objectInWorld(
  session: CdpSession,
  backendNodeId: number,
  options: CallOptions = {},
): Promise<string> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const world = await worldOf(session, options);
    try {
      const { object } = await session.call(
        'DOM.resolveNode',
        {
          backendNodeId,
          executionContextId: world.contextId,
          ...(options.group === undefined ? {} : { objectGroup: options.group }),
        },
        { signal: options.signal },
      );
      if (object.objectId !== undefined) {
        return object.objectId;
      }
      break;
    } catch (error) {
      if (!isStaleReference(error)) {
        throw error;
      }
      // The world is of an older document than the node (a navigation nobody called through yet).
      worlds.delete(session);
    }
  }
  throw new TabpilotError('ELEMENT_NOT_FOUND', 'The node is no longer on the page (take a new state)');
}

/** The context id of the frame's world, made when needed (a new one means a new document). */
export async function worldContextId(session: CdpSession, options: CallOptions = {}): Promise<number> {
  return (await worldOf(session, options)).contextId;
}
