import type { AgentRisk } from '../browser/events/agent.events';
import type { StateSummary } from '../tools/actions';
import { shortId } from '../shared/ids';
import type { Logger } from '../shared/logger';
import type { ModelAction } from './model';
import { classifyRisk, registrableDomain } from './risk-classifier';
import { probeRiskFacts } from './risk-probe';

/** What the agent does with an action it is about to run. */
export type GateVerdict =
  | { readonly kind: 'run' }
  | { readonly kind: 'refused'; readonly risk: AgentRisk; readonly reason: string }
  | { readonly kind: 'stopped' };

/** Looks at every action before it runs; the agent (and a rerun) runs it only on `run`. */
export interface ActionGate {
  review(action: ModelAction, state: StateSummary | null, signal: AbortSignal): Promise<GateVerdict>;
}

export interface ApprovalRequest {
  readonly run_id: string;
  readonly approval_id: string;
  readonly action: string;
  readonly params: unknown;
  readonly risk: AgentRisk;
  readonly reason: string;
}

/**
 * Answers whether the person lets the action run: true, false, or 'stopped' when `signal` aborted
 * first (the run was stopped while it waited).
 */
export type AskPerson = (request: ApprovalRequest, signal: AbortSignal) => Promise<boolean | 'stopped'>;

const RUN: GateVerdict = { kind: 'run' };

/**
 * The approval step: each action is classified (risk-classifier.ts) against the page it was chosen
 * on; one of a class in `risky` waits for `ask`. The gate remembers the domains of every page the run
 * acted on, which is what makes a domain new.
 */
export function approvalGate(options: {
  runId: string;
  approval: boolean;
  risky: readonly AgentRisk[];
  runAction: (name: string, params: unknown) => Promise<unknown>;
  ask: AskPerson;
  log?: Logger;
}): ActionGate {
  const visited = new Set<string>();
  return {
    review: async (action, state, signal) => {
      const here = state === null ? null : registrableDomain(state.url);
      if (here !== null) {
        visited.add(here);
      }
      if (!options.approval || options.risky.length === 0) {
        return RUN;
      }
      const facts = await probeRiskFacts({
        action,
        state,
        visitedDomains: visited,
        risky: options.risky,
        runAction: options.runAction,
        log: (message) => options.log?.warn(message),
      });
      const finding = classifyRisk(action, facts, options.risky);
      if (finding === null) {
        return RUN;
      }
      if (signal.aborted) {
        return { kind: 'stopped' };
      }
      const answer = await options.ask(
        {
          run_id: options.runId,
          approval_id: shortId(),
          action: action.name,
          params: action.params,
          risk: finding.risk,
          reason: finding.reason,
        },
        signal,
      );
      if (answer === 'stopped' || signal.aborted) {
        return { kind: 'stopped' };
      }
      return answer ? RUN : { kind: 'refused', risk: finding.risk, reason: finding.reason };
    },
  };
}

/** The outcome a refused action leaves in the step's results, which the model reads next step. */
export function refusedOutcome(
  action: ModelAction,
  reason: string,
): {
  name: string;
  params: unknown;
  success: false;
  extracted_content: null;
  error: string;
  error_code: 'FORBIDDEN';
} {
  return {
    name: action.name,
    params: action.params,
    success: false,
    extracted_content: null,
    error: `refused by the person: ${reason}`,
    error_code: 'FORBIDDEN',
  };
}
