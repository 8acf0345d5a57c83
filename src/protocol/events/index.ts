import { ACTIONS } from '../actions';
import type { AnyEventDefinition } from '../define-event';
import * as actions from './actions.events';
import * as agent from './agent.events';
import * as artifacts from './artifacts.events';
import * as config from './config.events';
import * as connection from './connection.events';
import * as captcha from './captcha.events';
import * as content from './content.events';
import * as dialogs from './dialogs.events';
import * as indicator from './indicator.events';
import * as lifecycle from './lifecycle.events';
import * as navigation from './navigation.events';
import * as security from './security.events';
import * as recording from './recording.events';
import * as state from './state.events';
import * as tabs from './tabs.events';

function definitionsOf(module: Record<string, unknown>): AnyEventDefinition[] {
  return Object.values(module).filter(
    (value): value is AnyEventDefinition =>
      typeof value === 'object' && value !== null && 'type' in value && 'payloadSchema' in value,
  );
}

/** Every event definition, for the name rule test, the timeout config and the panel's timeline. */
export const ALL_EVENTS: readonly AnyEventDefinition[] = withActionEvents([
  ...definitionsOf(lifecycle),
  ...definitionsOf(connection),
  ...definitionsOf(navigation),
  ...definitionsOf(tabs),
  ...definitionsOf(state),
  ...definitionsOf(content),
  ...definitionsOf(actions),
  ...definitionsOf(dialogs),
  ...definitionsOf(security),
  ...definitionsOf(config),
  ...definitionsOf(artifacts),
  ...definitionsOf(captcha),
  ...definitionsOf(recording),
  ...definitionsOf(agent),
  ...definitionsOf(indicator),
]);

/** A new action may declare its event beside its declaration (src/protocol/actions): those are events too. */
function withActionEvents(events: AnyEventDefinition[]): AnyEventDefinition[] {
  const known = new Set(events.map((definition) => definition.type));
  return [...events, ...ACTIONS.map((action) => action.event).filter((event) => !known.has(event.type))];
}

export const EVENT_NAMES: readonly string[] = ALL_EVENTS.map((definition) => definition.type);
