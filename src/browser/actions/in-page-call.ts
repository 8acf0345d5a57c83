import type { CdpSession } from '../../cdp/session';
import type { Protocol } from '../../protocol/cdp';
import { TabpilotError } from '../../shared/errors';
import { describeException } from '../../cdp/errors';
import { uuid7 } from '../../shared/ids';
import { ACTIONS_SOURCE, ACTIONS_VERSION } from './generated/actions-source';
import { ACTIONS_GLOBAL, type InPageHandleFunctions, type InPageValueFunctions } from './in-page-api';

/**
 * Calls into the in-page half of the action routines. On an element (its Runtime object in tabpilot's
 * isolated world) or in a frame's own actions world (page-level work: scrolling the page, finding text,
 * coordinate checks). The bundle installs itself on first use in each world, so a call costs one round
 * trip, two the first time in a document. Page scripts never see any of it.
 */

const WORLD_NAME = '__tabpilot_actions';
const MISSING = '__tabpilot_actions_missing';
const STALE = '__tabpilot_actions_stale_world';
const WORLD_TOKEN = '__tabpilotActionsWorld';

/**
 * Runs an in-page function by name. In a frame world it first checks the world's token: a context id
 * kept from before a cross-process navigation may name another context of the new process, and tabpilot
 * code must never run in the page's own world.
 */
const CALL = `function(name, args, version, token) {
  if (token !== '' && globalThis.${WORLD_TOKEN} !== token) { return ${JSON.stringify(STALE)}; }
  const api = globalThis.${ACTIONS_GLOBAL};
  if (api === undefined || api.version !== version) { return ${JSON.stringify(MISSING)}; }
  return api[name].apply(this, args);
}`;
const INSTALL = `function(token) { ${ACTIONS_SOURCE}; if (token !== '') { globalThis.${WORLD_TOKEN} = token; } return true; }`;

interface FrameWorld {
  contextId: number;
  token: string;
}

/** The actions world per frame session (a page or an OOPIF: its main frame id is its target id). */
const frameWorlds = new WeakMap<CdpSession, FrameWorld>();

async function createWorld(session: CdpSession): Promise<FrameWorld> {
  const { executionContextId } = await session.send('Page.createIsolatedWorld', {
    frameId: session.targetId,
    worldName: WORLD_NAME,
    grantUniveralAccess: false,
  });
  const world = { contextId: executionContextId, token: uuid7() };
  const installed = await session.send('Runtime.callFunctionOn', {
    functionDeclaration: INSTALL,
    executionContextId: world.contextId,
    arguments: [{ value: world.token }],
  });
  if (installed.exceptionDetails !== undefined) {
    throw failure('installing', installed.exceptionDetails);
  }
  frameWorlds.set(session, world);
  return world;
}

function isStaleContext(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /Cannot find context with specified id|Execution context was destroyed|Cannot find default execution context/i.test(
    message,
  );
}

function isGoneObject(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /Could not find object with given id|Cannot find context with specified id|Execution context was destroyed/i.test(
    message,
  );
}

type Where = { objectId: string } | { frame: true };

function failure(name: string, details: Protocol.Runtime.ExceptionDetails): TabpilotError {
  const description = describeException(details);
  return new TabpilotError('INTERNAL', `in-page ${name} failed: ${description.split('\n')[0] ?? description}`);
}

async function invoke(
  session: CdpSession,
  where: Where,
  name: string,
  args: readonly unknown[],
  returnByValue: boolean,
): Promise<Protocol.Runtime.RemoteObject> {
  for (let attempt = 0; attempt < 3; attempt++) {
    let target: { objectId: string } | { executionContextId: number };
    // An empty token skips the world check (an element's own world is known); null would not survive
    // chrome.debugger, which drops null arguments.
    let token = '';
    if ('objectId' in where) {
      target = { objectId: where.objectId };
    } else {
      const world = frameWorlds.get(session) ?? (await createWorld(session));
      target = { executionContextId: world.contextId };
      token = world.token;
    }
    let response: Protocol.Runtime.CallFunctionOnResponse;
    try {
      response = await session.send('Runtime.callFunctionOn', {
        functionDeclaration: CALL,
        ...target,
        arguments: [{ value: name }, { value: args }, { value: ACTIONS_VERSION }, { value: token }],
        returnByValue,
        awaitPromise: true,
      });
    } catch (error) {
      if ('frame' in where && isStaleContext(error)) {
        frameWorlds.delete(session);
        continue;
      }
      if ('objectId' in where && isGoneObject(error)) {
        throw new TabpilotError(
          'ELEMENT_NOT_FOUND',
          'The element is no longer on the page (it navigated or changed): take a new state',
        );
      }
      throw error;
    }
    if (response.exceptionDetails !== undefined) {
      throw failure(name, response.exceptionDetails);
    }
    const value: unknown = response.result.value;
    if (value === STALE) {
      frameWorlds.delete(session);
    } else if (value === MISSING) {
      const installed = await session.send('Runtime.callFunctionOn', {
        functionDeclaration: INSTALL,
        ...target,
        arguments: [{ value: token }],
      });
      if (installed.exceptionDetails !== undefined) {
        throw failure(`${name} (installing)`, installed.exceptionDetails);
      }
    } else {
      return response.result;
    }
  }
  throw new TabpilotError('INTERNAL', `in-page ${name}: could not install the action code in the page`);
}

/** Calls a value function with `this` = the element. */
export async function callOn<K extends keyof InPageValueFunctions>(
  session: CdpSession,
  objectId: string,
  name: K,
  ...args: InPageValueFunctions[K]['args']
): Promise<InPageValueFunctions[K]['result']> {
  const result = await invoke(session, { objectId }, name, args, true);
  return result.value as InPageValueFunctions[K]['result'];
}

/** Calls a value function in the frame's actions world (`this` = the world's global). */
export async function callInFrame<K extends keyof InPageValueFunctions>(
  session: CdpSession,
  name: K,
  ...args: InPageValueFunctions[K]['args']
): Promise<InPageValueFunctions[K]['result']> {
  const result = await invoke(session, { frame: true }, name, args, true);
  return result.value as InPageValueFunctions[K]['result'];
}

/** Calls an element-returning function on an element; the element's object id, or null. */
export async function handleOn<K extends keyof InPageHandleFunctions>(
  session: CdpSession,
  objectId: string,
  name: K,
  ...args: InPageHandleFunctions[K]
): Promise<string | null> {
  const result = await invoke(session, { objectId }, name, args, false);
  return result.objectId ?? null;
}

/** Calls an element-returning function in the frame's actions world; the object id, or null. */
export async function handleInFrame<K extends keyof InPageHandleFunctions>(
  session: CdpSession,
  name: K,
  ...args: InPageHandleFunctions[K]
): Promise<string | null> {
  const result = await invoke(session, { frame: true }, name, args, false);
  return result.objectId ?? null;
}

/** A handle, in the frame's actions world, on a node known by its backend id (an iframe's owner element). */
export async function objectInFrameWorld(session: CdpSession, backendNodeId: number): Promise<string> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const world = frameWorlds.get(session) ?? (await createWorld(session));
    try {
      const { object } = await session.send('DOM.resolveNode', { backendNodeId, executionContextId: world.contextId });
      if (object.objectId === undefined) {
        break;
      }
      return object.objectId;
    } catch (error) {
      if (!isStaleContext(error)) {
        throw error;
      }
      frameWorlds.delete(session);
    }
  }
  throw new TabpilotError('ELEMENT_NOT_FOUND', 'The frame element is no longer on the page (take a new state)');
}
