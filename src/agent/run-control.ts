import { createDeferred, type Deferred } from '../shared/deferred';
import { errorMessageOf, TabpilotError } from '../shared/errors';
import { silentLogger, type Logger } from '../shared/logger';
import type { ClientInfo } from '../tools/registry';
import type { ApprovalRequest, AskPerson } from './approval-gate';
import { mayReach, ownerOf } from './run-owners';

/** A run the person can hold, let go on, or end: an agent's. */
export interface ControlledRun {
  readonly runId: string;
  readonly paused: boolean;
  pause(): void;
  resume(): void;
  stop(): void;
}

/** Tells the person (the timeline, the panel) that an approval waits and how it was answered. */
export interface ApprovalAnnouncer {
  requested(request: ApprovalRequest): Promise<void>;
  resolved(runId: string, approvalId: string, approved: boolean): Promise<void>;
}

interface PendingApproval {
  readonly runId: string;
  /** The program whose run asked (its source), or undefined for the person's own run. */
  readonly owner: string | undefined;
  readonly answer: Deferred<boolean>;
  readonly announce: ApprovalAnnouncer;
}

/**
 * The one run going in a session (an agent's) and the approvals it waits for, shared by
 * the actions that start runs and the ones that steer them.
 */
export class RunControl {
  #current: ControlledRun | undefined;
  /** The program the run going acts as (its source), or undefined for the person's own run. */
  #currentOwner: string | undefined;
  readonly #approvals = new Map<string, PendingApproval>();
  readonly #log: Logger;

  constructor(log: Logger = silentLogger) {
    this.#log = log;
  }
  /**
   * Makes `run` the one going, acting as `owner` (a program's run; none for the person's); throws
   * FORBIDDEN while another is. Answers the function that ends it.
   */
  begin(run: ControlledRun, owner?: ClientInfo): () => void {
    if (this.#current !== undefined) {
      throw new TabpilotError(
        'FORBIDDEN',
        `run ${this.#current.runId} is still going: stop it (stop_run, or cancel its request) before starting another`,
        { details: { run_id: this.#current.runId } },
      );
    }
    this.#current = run;
    this.#currentOwner = ownerOf(owner);
    return () => {
      if (this.#current === run) {
        this.#current = undefined;
      }
    };
  }

  /** The run going, when `runId` is null or names it; INVALID_PARAMS otherwise (no such run going). */
  running(runId: string | null): ControlledRun {
    const current = this.#current;
    if (current === undefined) {
      throw new TabpilotError('INVALID_PARAMS', runId === null ? 'no run is going' : `run ${runId} is not going`, {
        details: { field: 'run_id', run_id: runId },
      });
    }
    if (runId !== null && runId !== current.runId) {
      throw new TabpilotError('INVALID_PARAMS', `run ${runId} is not going (run ${current.runId} is)`, {
        details: { field: 'run_id', run_id: runId },
      });
    }
    return current;
  }

  /**
   * The run going, for `by` to pause, resume or stop (`action`), held to the same rule as answering its
   * approvals: the person (the panel, or any caller that is not a program) steers any run, a program only
   * the run it started; FORBIDDEN for any other program, so no program holds or ends the person's run or
   * another program's. INVALID_PARAMS as `running` when no such run is going.
   */
  steered(runId: string | null, by: ClientInfo, action: string): ControlledRun {
    const run = this.running(runId);
    if (!mayReach(by, this.#currentOwner)) {
      throw new TabpilotError(
        'FORBIDDEN',
        `${action}: run ${run.runId} is ${this.#currentOwner === undefined ? "the person's own" : `${this.#currentOwner}'s`}, and only the person (in the panel) or the client whose run it is may pause, resume or stop it`,
        { details: { run_id: run.runId } },
      );
    }
    return run;
  }

  /**
   * The run's way to ask: announces each request and waits for `answer` (or the stop, which refuses).
   * `owner` is the program the run acts as (a native or MCP client's run); none for the person's run.
   */
  asker(announce: ApprovalAnnouncer, owner?: ClientInfo): AskPerson {
    const ownerSource = ownerOf(owner);
    return (request, signal) => this.#ask(request, signal, announce, ownerSource);
  }

  async #ask(
    request: ApprovalRequest,
    signal: AbortSignal,
    announce: ApprovalAnnouncer,
    owner: string | undefined,
  ): Promise<boolean | 'stopped'> {
    if (signal.aborted) {
      return 'stopped';
    }
    const answer = createDeferred<boolean>();
    this.#approvals.set(request.approval_id, { runId: request.run_id, owner, answer, announce });
    const stop = (): void => answer.resolve(false);
    signal.addEventListener('abort', stop, { once: true });
    try {
      try {
        await announce.requested(request);
      } catch (error) {
        // The emergency stop cancels the event on its way to the person: the run is ending, not failing.
        if (signal.aborted) {
          return 'stopped';
        }
        throw error;
      }
      const approved = await answer.promise;
      return signal.aborted ? 'stopped' : approved;
    } finally {
      signal.removeEventListener('abort', stop);
      if (this.#approvals.delete(request.approval_id) && signal.aborted) {
        await this.#tell('refused on stop', () => announce.resolved(request.run_id, request.approval_id, false));
      }
    }
  }

  /** An announcement the bus refuses (a stopping session) leaves the answer as it is. */
  async #tell(what: string, announce: () => Promise<void>): Promise<void> {
    try {
      await announce();
    } catch (error) {
      this.#log.warn(`could not announce an approval ${what}`, { error: errorMessageOf(error) });
    }
  }

  /**
   * The answer to a waiting approval, from `by`: the person (the panel, or any caller that is not a
   * program) or the program whose own run asked; FORBIDDEN from any other program, INVALID_PARAMS for an
   * id nothing waits on.
   */
  async answer(approvalId: string, approved: boolean, by: ClientInfo): Promise<void> {
    const pending = this.#approvals.get(approvalId);
    if (pending === undefined) {
      throw new TabpilotError(
        'INVALID_PARAMS',
        `no approval ${approvalId} is waiting (answered already, or its run ended)`,
        {
          details: { field: 'approval_id', approval_id: approvalId },
        },
      );
    }
    if (!mayReach(by, pending.owner)) {
      throw new TabpilotError(
        'FORBIDDEN',
        `approval ${approvalId} is not yours to answer: run ${pending.runId} is ${pending.owner === undefined ? "the person's own" : `${pending.owner}'s`}, and only the person (in the panel) or the client whose run asked may answer it`,
        { details: { approval_id: approvalId, run_id: pending.runId } },
      );
    }
    this.#approvals.delete(approvalId);
    pending.answer.resolve(approved);
    await this.#tell(approved ? 'approved' : 'refused', () =>
      pending.announce.resolved(pending.runId, approvalId, approved),
    );
  }
}
