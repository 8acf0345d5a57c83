import type { PersonQuestion } from '../../protocol/person-questions';
import type { NativeStatus } from '../../protocol/native-panel';
import type { AgentKeysPresent, PanelStatus, TimelineEntry } from '../../protocol/panel-messages';
import type { Described } from './describe';
import type { ConnectionStatus, PushedMessage } from './port';

/** Everything the panel shows that comes from the worker. The panel renders it; it does no work. */
export interface PanelState {
  connection: ConnectionStatus;
  status: PanelStatus | undefined;
  /** By id, in the order first seen (oldest first). */
  timeline: ReadonlyMap<string, TimelineEntry>;
  config: Record<string, unknown> | undefined;
  described: Described | undefined;
  /** The native host and its clients. */
  native: NativeStatus | undefined;
  /** Which providers the agent has an API key for. */
  agentKeys: AgentKeysPresent | undefined;
  /** Questions programs put to the person, waiting for Allow once or Refuse. */
  questions: readonly PersonQuestion[];
}

export type PanelAction =
  | { type: 'connection'; connection: ConnectionStatus }
  | { type: 'push'; message: PushedMessage }
  | { type: 'described'; described: Described | undefined };

export const INITIAL_STATE: PanelState = {
  connection: 'connecting',
  status: undefined,
  timeline: new Map(),
  config: undefined,
  described: undefined,
  native: undefined,
  agentKeys: undefined,
  questions: [],
};

export function reduce(state: PanelState, action: PanelAction): PanelState {
  switch (action.type) {
    case 'connection':
      return { ...state, connection: action.connection };
    case 'described':
      return { ...state, described: action.described };
    case 'push':
      return reducePush(state, action.message);
  }
}

function reducePush(state: PanelState, message: PushedMessage): PanelState {
  switch (message.type) {
    case 'status':
      return { ...state, status: message.status };
    case 'settings':
      return { ...state, config: message.config };
    case 'timeline': {
      const timeline = new Map(message.reset ? [] : state.timeline);
      for (const id of message.dropped ?? []) {
        timeline.delete(id);
      }
      for (const entry of message.entries) {
        timeline.set(entry.id, entry);
      }
      return { ...state, timeline };
    }
    case 'native':
      return { ...state, native: message.native };
    case 'agent_keys':
      return { ...state, agentKeys: message.keys };
    case 'person_questions':
      return { ...state, questions: message.questions };
    case 'event':
      // Protocol events a `subscribe` asked for: the timeline already shows every bus event.
      return state;
  }
}
