import { ACTING_ACTIONS } from './acting.actions';
import { CONTENT_ACTIONS } from './content.actions';
import type { CommandError, RequestId } from '../commands';
import { EMULATION_ACTIONS } from './emulation.actions';
import { FLOW_ACTIONS } from './flows.actions';
import type { AnyActionDeclaration, ParamsIn, ResultOut } from './declare-action';
import { NAVIGATION_ACTIONS } from './navigation.actions';
import { NETWORK_CONDITIONS_ACTIONS } from './network-conditions.actions';
import { ROUTE_ACTIONS } from './route.actions';
import { PERFORMANCE_ACTIONS } from './performance.actions';
import { SEEING_ACTIONS } from './seeing.actions';
import { STORAGE_ACTIONS } from './storage.actions';
import { TAB_ACTIONS } from './tabs.actions';

export * from './declare-action';

/**
 * Every protocol action, in the order `describe` (and the MCP server's tool list) gives them: a fixed
 * order, so a client's prompt cache holds across sessions. Each declaration says all there is to say of
 * its action (see declare-action.ts); every surface derives from this list. To add an action, see
 * CONTRIBUTING.md.
 */
export const ACTIONS = [
  ...NAVIGATION_ACTIONS,
  ...TAB_ACTIONS,
  ...SEEING_ACTIONS,
  ...CONTENT_ACTIONS,
  ...STORAGE_ACTIONS,
  ...ACTING_ACTIONS,
  ...EMULATION_ACTIONS,
  ...NETWORK_CONDITIONS_ACTIONS,
  ...ROUTE_ACTIONS,
  ...PERFORMANCE_ACTIONS,
  ...FLOW_ACTIONS,
] as const;

type Declared = (typeof ACTIONS)[number];
/** The name of a protocol action the registry serves. */
export type ActionName = Declared['name'];
type DeclarationNamed<N extends ActionName> = Extract<Declared, { name: N }>;
/** What a client sends for action N. */
export type ActionParams<N extends ActionName> = ParamsIn<DeclarationNamed<N>['event']>;
/** What a client receives for action N: the declared result, with tab ids. */
export type ActionResult<N extends ActionName> = ResultOut<DeclarationNamed<N>['event']>;

/** The answer to action N: its declared result, or an error. */
export type ActionResponse<N extends ActionName> =
  | { id: RequestId | null; ok: true; result: ActionResult<N> }
  | { id: RequestId | null; ok: false; error: CommandError };

const BY_NAME: ReadonlyMap<string, AnyActionDeclaration> = new Map(
  ACTIONS.map((action): [string, AnyActionDeclaration] => [action.name, action]),
);

const BY_EVENT: ReadonlyMap<string, AnyActionDeclaration> = new Map(
  ACTIONS.map((action): [string, AnyActionDeclaration] => [action.event.type, action]),
);

/** The action whose event this is, or undefined for an event no client asks for. */
export function declarationOfEvent(type: string): AnyActionDeclaration | undefined {
  return BY_EVENT.get(type);
}

/** The declaration of an action, or undefined for a name that is none (the agent's, the server's own). */
export function declarationOf(name: string): AnyActionDeclaration | undefined {
  return BY_NAME.get(name);
}

/**
 * Whether the page needs no time to settle after this action before the next state is read: it only
 * read, or it waited for the page it changed to (a navigation, another tab).
 */
export function leavesPageSettled(name: string): boolean {
  const declared = declarationOf(name);
  return declared?.changesPage === true || declared?.onlyReads === true;
}

/** An action no program may use, so no MCP client is offered it as a tool (personOnly 'always'). */
export function personAlone(name: string): boolean {
  return BY_NAME.get(name)?.personOnly === 'always';
}
