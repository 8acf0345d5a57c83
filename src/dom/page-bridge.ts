import type { CdpSession } from '../cdp/session';
import { describeException, isStaleReference } from '../cdp/errors';
import type { Protocol } from '../protocol/cdp';
import { TabpilotError } from '../shared/errors';
import { uuid7 } from '../shared/ids';
import { PAGE_GLOBAL, PAGE_SOURCE, PAGE_VERSION } from './generated/page-source';

/**
 * The one bridge into the page. Every frame session (a tab, or an out-of-process iframe) has one
 * isolated world, `__tabpilot`, and everything tabpilot runs in a page runs there: perception, the action
 * routines' in-page half, the control indicator, the storage state's restores. The page's scripts cannot
 * see or change what runs there, and it keeps what the in-page code remembers between calls (the element
 * ids that keep indexes stable, a pointer guard, the indicator). The in-page code (src/dom/in-page and
 * src/browser/actions/in-page, bundled once by scripts/build-inpage.mjs) installs itself there on first
 * use, or at a document's start when a caller asked for a call then (atDocumentStart), and is versioned by
 * the hash of its bundle. Calls are typed by the function maps of each side's contract and pass their
 * arguments as data (one JSON string argument; nothing is spliced into a script): one round trip, two the
 * first time in a document that no start-of-document call installed the code in.
 *
 * Why the one name gives one world (Chromium 156, tried over a WebSocket client): Page.createIsolatedWorld
 * with a name a frame already has a world of returns that world's context (the same id each time, with or
 * without grantUniveralAccess), and Page.addScriptToEvaluateOnNewDocument with that worldName runs its
 * script in that same context of each new document (so a call made later finds what the script left).
 * A start-of-document script makes the world in every frame of the session, child frames too, even
 * where it does nothing; and the world is the frame's, not the CDP client's: another client's
 * createIsolatedWorld of the name reaches the same context. So one name is one world per frame; three
 * names were three.
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
/**
 * Installs the bundle unless this version is there already (a start-of-document call installed it, or
 * an earlier session of this frame did): running it again would start its modules afresh beside the
 * listeners and the indicator the first run keeps.
 */
const INSTALLED = `globalThis.${PAGE_GLOBAL} !== undefined && globalThis.${PAGE_GLOBAL}.version === ${JSON.stringify(PAGE_VERSION)}`;
const INSTALL = `function(token) { if (!(${INSTALLED})) { ${PAGE_SOURCE}; } if (token !== '') { globalThis.${WORLD_TOKEN} = token; } return true; }`;

interface World {
  contextId: number;
  token: string;
}

/**
 * The world of one frame session (a session's frame is its target: a page or an OOPIF), owned by the
 * session (`session.own(FrameWorld)`), so it goes with the session: a closed tab, a gone frame, an old
 * connection leave nothing behind here.
 */
export class FrameWorld {
  readonly #session: CdpSession;
  #world: World | undefined;
  /** The world being made: callers at once (the indicator's renewal and a state, in a new document) share it. */
  #making: Promise<World> | undefined;

  constructor(session: CdpSession) {
    this.#session = session;
  }

  /** The world made for the current document, if one was. */
  get current(): World | undefined {
    return this.#world;
  }

  /** The world of the current document, made (and the bundle installed) when there is none yet. */
  async get(options: CallOptions): Promise<World> {
    if (this.#world !== undefined) {
      return this.#world;
    }
    // Two makings at once would each give the one world a token of their own, and one caller's would be
    // stale at once. The making is shared, so no caller's cancel signal is its own.
    this.#making ??= this.#create(options.background === true).finally(() => {
      this.#making = undefined;
    });
    return this.#making;
  }

  /** Forgets the world, so the next call asks for it again (its document went, or a binding was added to its name). */
  forget(): void {
    this.#world = undefined;
  }

  async #create(background: boolean): Promise<World> {
    const session = this.#session;
    const options = cdpOptions({ background });
    const { executionContextId } = await session.call(
      'Page.createIsolatedWorld',
      { frameId: session.targetId, worldName: WORLD_NAME, grantUniveralAccess: false },
      options,
    );
    const world = { contextId: executionContextId, token: uuid7() };
    const installed = await session.call(
      'Runtime.callFunctionOn',
      { functionDeclaration: INSTALL, executionContextId: world.contextId, arguments: [{ value: world.token }] },
      options,
    );
    if (installed.exceptionDetails !== undefined) {
      throw failure('installing', installed.exceptionDetails);
    }
    this.#world = world;
    return world;
  }
}

const frameWorld = (session: CdpSession): FrameWorld => session.own(FrameWorld);

/**
 * Forgets the session's world, so the next call asks for it again: a binding added to the world's name
 * reaches the contexts made after it.
 */
export function forgetWorld(session: CdpSession): void {
  frameWorld(session).forget();
}

/** How many of these sessions hold a world (a debug figure: one per live page and out-of-process frame looked into). */
export function worldCount(sessions: Iterable<CdpSession>): number {
  let count = 0;
  for (const session of sessions) {
    if (!session.detached && frameWorld(session).current !== undefined) {
      count += 1;
    }
  }
  return count;
}

export interface CallOptions {
  signal?: AbortSignal | undefined;
  /** Object group for returned handles (released together by the caller). */
  group?: string | undefined;
  /** Longer than the connection's own command timeout: a call that waits in the page for a person. */
  timeoutMs?: number | undefined;
  /** Upkeep of its own, not the session's commands (see CdpConnection's `background`). */
  background?: boolean | undefined;
}

/** What of a call's options each CDP command of it takes. */
function cdpOptions(options: CallOptions): { signal?: AbortSignal; timeoutMs?: number; background?: boolean } {
  return {
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.background === true ? { background: true } : {}),
  };
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
      const world = frameWorld(session).current;
      if (world?.contextId !== where.contextId) {
        throw gone();
      }
      ({ contextId, token } = world);
      target = { executionContextId: contextId };
    } else {
      const world = await frameWorld(session).get(options);
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
        cdpOptions(options),
      );
    } catch (error) {
      if (!isStaleReference(error)) {
        throw error;
      }
      if ('frame' in where) {
        frameWorld(session).forget();
        continue;
      }
      throw gone();
    }
    if (response.exceptionDetails !== undefined) {
      throw failure(name, response.exceptionDetails);
    }
    const value: unknown = response.result.value;
    if (value === STALE) {
      frameWorld(session).forget();
      if (!('frame' in where)) {
        throw gone();
      }
    } else if (value === MISSING) {
      const installed = await session.call(
        'Runtime.callFunctionOn',
        { functionDeclaration: INSTALL, ...target, arguments: [{ value: token }] },
        cdpOptions(options),
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
  /**
   * Adds a call made in tabpilot's world at the start of every new document of the session's frames
   * (`top`: top-level documents only), before the page's own scripts run; the bundle installs itself
   * there first. Answers the script's identifier (Page.removeScriptToEvaluateOnNewDocument takes it away).
   */
  atDocumentStart: <K extends keyof V & string>(
    session: CdpSession,
    frames: 'top' | 'all',
    name: K,
    ...args: V[K]['args']
  ) => Promise<string>;
  /** The same calls with a cancel signal, an object group, a timeout or as upkeep. */
  with: (options: CallOptions) => PageFunctions<V, H>;
}

/**
 * The script of a start-of-document call: the arguments are one JSON string literal, data like a call's.
 * It runs in the world's global, as a frame call does.
 */
export function documentStartSource(frames: 'top' | 'all', name: string, args: readonly unknown[]): string {
  const onlyTop = frames === 'top' ? 'if (window !== window.top) { return; }' : '';
  return (
    `(() => { ${onlyTop} if (!(${INSTALLED})) { ${PAGE_SOURCE}; } ` +
    `globalThis.${PAGE_GLOBAL}[${JSON.stringify(name)}].apply(globalThis, JSON.parse(${JSON.stringify(JSON.stringify(args))})); })();`
  );
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
    atDocumentStart: async (session, frames, name, ...args) => {
      const { identifier } = await session.call(
        'Page.addScriptToEvaluateOnNewDocument',
        { source: documentStartSource(frames, name, args), worldName: WORLD_NAME },
        cdpOptions(options),
      );
      return identifier;
    },
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
    const world = await frameWorld(session).get(options);
    try {
      const { object } = await session.call(
        'DOM.resolveNode',
        {
          backendNodeId,
          executionContextId: world.contextId,
          ...(options.group === undefined ? {} : { objectGroup: options.group }),
        },
        cdpOptions(options),
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
      frameWorld(session).forget();
    }
  }
  throw new TabpilotError('ELEMENT_NOT_FOUND', 'The node is no longer on the page (take a new state)');
}
