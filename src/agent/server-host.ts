import {
  AgentApprovalRequestedEvent,
  AgentApprovalResolvedEvent,
  AgentPausedEvent,
  AgentRunFinishedEvent,
  AgentRunStartedEvent,
  AgentStepEvent,
} from '../protocol/events/agent.events';
import { BrowserStopEvent } from '../protocol/events/lifecycle.events';
import type { PayloadInputOf } from '../protocol/define-event';
import type { CommandServer } from '../tools/command-server';
import { sourceOf, type ClientInfo } from '../tools/registry';
import type { AgentHost } from './agent';
import { agentConnection } from './agent-connection';
import type { ApprovalAnnouncer } from './run-control';

const EVENTS = {
  started: AgentRunStartedEvent,
  step: AgentStepEvent,
  finished: AgentRunFinishedEvent,
  paused: AgentPausedEvent,
} as const;

/** A host over a CommandServer, with the end of its connection (the run's, or the rerun's, is over). */
export interface ServerAgentHost extends AgentHost {
  close(): void;
}

/**
 * The agent as one more client of a CommandServer (kind `agent`, id the run's): its actions are requests
 * of a ClientConnection of its own (agent-connection.ts), so they take the road every client's do (order,
 * cancelling, the gate, the registry, the action's watchdog) and what it shows the model is masked where
 * every client's answers are; its events and the events its actions cause carry the source
 * `agent:<run_id>`. With `actAs` (a run a client that keeps its own tabs started), it acts as that client
 * instead, in that client's tabs.
 */
export function serverHost(server: CommandServer, runId: string, actAs?: ClientInfo): ServerAgentHost {
  const client = runClient(runId, actAs);
  const connection = agentConnection(server, client);
  const bus = server.session.bus;
  const secretNames = [
    ...new Set(Object.values(server.session.config.sensitive_data).flatMap((secrets) => Object.keys(secrets))),
  ];
  return {
    runAction: (name, params) => connection.run(name, params),
    act: (name, params) => connection.act(name, params),
    // A look over CDP, as the risk probe's: what it derives is kept in the run's flow, never shown the model.
    locate: async (tabId, index) => server.session.dom.locatorOf(await server.session.resolveTab(tabId), index),
    emit: async (type, payload) => {
      const definition = EVENTS[type];
      await bus.emit(definition, payload as PayloadInputOf<typeof definition>, { source: sourceOf(client) });
    },
    onEmergencyStop: (callback) =>
      bus.observe(({ phase, record }) => {
        if (phase === 'emitted' && record.event.type === BrowserStopEvent.type) {
          callback();
        }
      }),
    actions: server.registry.describe(),
    secretNames,
    close: () => connection.close(),
  };
}

function runClient(runId: string, actAs: ClientInfo | undefined): ClientInfo {
  return actAs ?? { id: runId, kind: 'agent' };
}

/** A run's approvals as bus events, with the same source as the run's own events. */
export function approvalAnnouncer(server: CommandServer, runId: string, actAs?: ClientInfo): ApprovalAnnouncer {
  const source = sourceOf(runClient(runId, actAs));
  const bus = server.session.bus;
  return {
    requested: async (request) => {
      await bus.emit(AgentApprovalRequestedEvent, { ...request }, { source });
    },
    resolved: async (run_id, approval_id, approved) => {
      await bus.emit(AgentApprovalResolvedEvent, { run_id, approval_id, approved }, { source });
    },
  };
}
