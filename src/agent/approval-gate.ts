import type { AgentActionOutcome, AgentRisk } from '../protocol/events/agent.events';
import type { StateSummary } from '../tools/actions';
import { errorCodeOf, errorMessageOf } from '../shared/errors';
import { shortId } from '../shared/ids';
import type { Logger } from '../shared/logger';
import type { ModelAction } from './model';
import type { PageLook } from './page-look';
import { classifyRisk, registrableDomain } from './risk-classifier';
import { probeRiskFacts } from './risk-probe';

/** What the agent does with an action it is about to run. */
export type GateVerdict =
  | { readonly kind: 'run' }
  | { readonly kind: 'refused'; readonly risk: AgentRisk; readonly reason: string }
  | { readonly kind: 'stopped' };

/** Looks at every action before it runs; the agent runs it only on `run`. */
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
  /** Reads the tab's history and focused field (go_back/go_forward, Enter without window focus). */
  look?: PageLook;
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
        ...(options.look === undefined ? {} : { look: options.look }),
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

/**
 * Whether the guards are on for a run: the config's agent.approval when it says, else the platform's
 * word on the browser: on where it may be the person's own (their profile holds their sessions, their
 * downloads folder), off for a browser launched on a temporary profile that holds nothing of theirs.
 */
export function approvalInForce(setting: boolean | null, personsBrowser: boolean): boolean {
  return setting ?? personsBrowser;
}

/** An action that did not run, as the step's results show it to the model. */
function notRun(action: ModelAction, error: string, code: string): AgentActionOutcome {
  return { name: action.name, params: action.params, success: false, extracted_content: null, error, error_code: code };
}

/**
 * The gate's word on one action, for the loop: 'run', 'stopped' (the run was stopped meanwhile), or the
 * outcome that stands in the step's results instead of the action: refused by the person (FORBIDDEN),
 * or nobody could be asked (the error's code), which the model reads next step.
 */
export async function holdAtGate(
  gate: ActionGate,
  action: ModelAction,
  state: StateSummary | null,
  signal: AbortSignal,
): Promise<'run' | 'stopped' | AgentActionOutcome> {
  let verdict: GateVerdict;
  try {
    verdict = await gate.review(action, state, signal);
  } catch (error) {
    if (signal.aborted) {
      return 'stopped';
    }
    return notRun(action, `could not ask the person to approve it: ${errorMessageOf(error)}`, errorCodeOf(error));
  }
  if (verdict.kind === 'stopped' || signal.aborted) {
    return 'stopped';
  }
  return verdict.kind === 'refused' ? notRun(action, refusal(verdict.reason), 'FORBIDDEN') : 'run';
}

/** How a refused action's error reads in a run's step. */
function refusal(reason: string): string {
  return `refused by the person: ${reason}`;
}
