import { TabpilotError } from '../shared/errors';
import { leasesTabs } from '../tools/client-gate';
import { sourceOf, type ClientInfo } from '../tools/registry';
import type { RunStore, RunSummary } from './run-store';

/** The owner a run is kept under: the program it acts as (its source), none for the person's run. */
export function ownerOf(actAs: ClientInfo | undefined): string | undefined {
  return actAs === undefined ? undefined : sourceOf(actAs);
}

/** Whether `caller` may reach a run kept under `owner`: the person any run, a program only its own. */
export function mayReach(caller: ClientInfo, owner: string | undefined): boolean {
  return !leasesTabs(caller) || sourceOf(caller) === owner;
}

/**
 * Whose each run is, so what one program does stays its own: a program (native or MCP client) lists,
 * reads, reruns and gets the step pictures of its own runs only; the person (the panel) and in-process
 * callers reach every run. Runs going are noted here as they start (a picture may be asked for before
 * the run is kept); past runs carry their owner in their record.
 */
export class RunOwners {
  readonly #going = new Map<string, string | undefined>();
  readonly #store: RunStore | undefined;

  constructor(store: RunStore | undefined) {
    this.#store = store;
  }

  /** A run started (or went on as a follow-up) for `owner`. */
  started(runId: string, owner: string | undefined): void {
    this.#going.set(runId, owner);
  }

  /** The runs `caller` may see, of the kept ones. */
  visible(caller: ClientInfo, runs: readonly RunSummary[]): RunSummary[] {
    return runs.filter((run) => mayReach(caller, run.owner));
  }

  /** FORBIDDEN when `caller` is a program and the run is not its own (a run nobody noted is not). */
  async check(caller: ClientInfo, runId: string, action: string): Promise<void> {
    if (!leasesTabs(caller)) {
      return;
    }
    const owner = this.#going.has(runId) ? this.#going.get(runId) : (await this.#store?.get(runId))?.owner;
    if (!mayReach(caller, owner)) {
      throw new TabpilotError(
        'FORBIDDEN',
        `${action}: run ${runId} is not ${caller.id}'s: a client reaches only the runs it started itself`,
        { details: { run_id: runId } },
      );
    }
  }
}
