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
import type { ApprovalAnnouncer } from './run-control';

const EVENTS = {
  started: AgentRunStartedEvent,
  step: AgentStepEvent,
  finished: AgentRunFinishedEvent,
  paused: AgentPausedEvent,
} as const;

/**
 * The agent as one more client of a CommandServer (kind `agent`, id the run's): its actions take the
 * road every client's do (the gate, the registry, the action's watchdog), its events and the events its
 * actions cause carry the source `agent:<run_id>`, and everything it shows the model is redacted as
 * every client's output is. With `actAs` (a run a client that keeps its own tabs started), it acts as
 * that client instead, in that client's tabs.
 */
export function serverHost(server: CommandServer, runId: string, actAs?: ClientInfo): AgentHost {
  const client = runClient(runId, actAs);
  const context = server.contextFor(client);
  const bus = server.session.bus;
  const secretNames = [
    ...new Set(Object.values(server.session.config.sensitive_data).flatMap((secrets) => Object.keys(secrets))),
  ];
  return {
    runAction: (name, params) => server.runAction(name, params, context),
    emit: async (type, payload) => {
      const definition = EVENTS[type];
      await bus.emit(definition, payload as PayloadInputOf<typeof definition>, { source: sourceOf(client) });
    },
    redact: (value) => server.redact(value),
    onEmergencyStop: (callback) =>
      bus.observe(({ phase, record }) => {
        if (phase === 'emitted' && record.event.type === BrowserStopEvent.type) {
          callback();
        }
      }),
    actions: server.registry.describe(),
    secretNames,
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
