import { z } from 'zod';
import { stepLines } from '../../agent/step-lines';
import {
  AgentApprovalRequestedEvent,
  AgentApprovalResolvedEvent,
  AgentPausedEvent,
  AgentRunFinishReason,
  AgentRunStartedEvent,
  AgentStepEvent,
} from '../../protocol/events/agent.events';
import { connectClient, EXIT } from '../../platform/node/native/cli-action';
import type { HostClient } from '../../platform/node/native/host-client';
import type { CommandResponse, EventMessage } from '../../protocol/commands';
import type { ClientName } from '../../protocol/native-messages';
import { errorMessageOf } from '../../shared/errors';
import { askOnTerminal } from './tty-approval';
import { fieldOf } from '../../shared/narrow';

export interface ExtensionRunOptions {
  task: string;
  client: ClientName;
  stateDir: string;
  /** The host of this browser profile, when several browsers run one. */
  userDataDir: string | undefined;
  /** The run's max_steps; undefined: the extension's agent.max_steps. */
  maxSteps: number | undefined;
  yes: boolean;
}

/** The `run` action's answer. */
const RunAnswer = z.object({
  run_id: z.string(),
  reason: AgentRunFinishReason,
  success: z.boolean(),
  text: z.string(),
  steps: z.number(),
});

const RUN_EVENTS = [
  AgentRunStartedEvent,
  AgentStepEvent,
  AgentPausedEvent,
  AgentApprovalRequestedEvent,
  AgentApprovalResolvedEvent,
];

const out = (text: string): void => void process.stdout.write(`${text}\n`);
const err = (text: string): void => void process.stderr.write(`${text}\n`);

/**
 * `tabpilot run "TASK" --extension`: the extension's built-in agent does the task in the person's own
 * browser, through the native host, with the model and key of the side panel's settings. The run's
 * events stream its steps to stderr as the in-process run prints them; its answer's done text goes to
 * stdout. Ctrl-C stops the run in the browser (stop_run), and the run still answers how it ended.
 * Exit codes: 0 the task succeeded, 1 it did not (or the run was refused), 3 no host, or the connection
 * broke mid-run.
 */
export async function runThroughExtension(options: ExtensionRunOptions): Promise<number> {
  const client = await connectClient({
    client: options.client,
    stateDir: options.stateDir,
    userDataDir: options.userDataDir,
    json: false,
    outcome: false,
    out,
    err,
  });
  if (typeof client === 'number') {
    return client;
  }
  try {
    return await new ExtensionRun(client, options).go();
  } finally {
    client.close();
  }
}

class ExtensionRun {
  readonly #client: HostClient;
  readonly #options: ExtensionRunOptions;
  /** The run's events carry the source of the native client that started it: the agent acts as it. */
  readonly #source: string;
  readonly #answers = new Map<string, (response: CommandResponse) => void>();
  /** Approvals asked on the terminal, by id: an answer from the side panel ends the question. */
  readonly #questions = new Map<string, AbortController>();
  #nextId = 0;
  #runRequestId: string | undefined;
  #runId: string | undefined;
  #stopping = false;
  readonly #interruptHandler = (): void => this.#interrupt();

  constructor(client: HostClient, options: ExtensionRunOptions) {
    this.#client = client;
    this.#options = options;
    this.#source = `native:${options.client}`;
  }

  async go(): Promise<number> {
    this.#client.onMessage((message) => {
      if ('ok' in message) {
        if (typeof message.id === 'string') {
          this.#answers.get(message.id)?.(message);
          this.#answers.delete(message.id);
        }
        return;
      }
      this.#onEvent(message);
    });
    const subscribed = await this.#request('subscribe', { events: RUN_EVENTS.map((event) => event.type) });
    if (!subscribed.ok) {
      return this.#failed(subscribed);
    }
    process.on('SIGINT', this.#interruptHandler);
    process.on('SIGTERM', this.#interruptHandler);
    try {
      const id = this.#nextRequestId();
      this.#runRequestId = id;
      const params = { task: this.#options.task, max_steps: this.#options.maxSteps ?? null };
      const response = await this.#request('run', params, id);
      return response.ok ? this.#finished(response.result) : this.#failed(response);
    } finally {
      this.#removeSignalHandlers();
      for (const question of this.#questions.values()) {
        question.abort();
      }
    }
  }

  #finished(result: unknown): number {
    const parsed = RunAnswer.safeParse(result);
    if (!parsed.success) {
      err(`tabpilot: the extension answered the run with something unexpected: ${JSON.stringify(result)}`);
      return EXIT.errorAnswer;
    }
    const run = parsed.data;
    err(`run ${run.run_id} finished: ${run.reason} after ${run.steps} steps`);
    out(run.text);
    return run.success && run.reason === 'done' ? EXIT.ok : EXIT.errorAnswer;
  }

  #failed(response: Extract<CommandResponse, { ok: false }>): number {
    const { code, message } = response.error;
    if (code === 'DISCONNECTED') {
      err(
        `tabpilot: the connection to the browser broke${this.#runId === undefined ? '' : ` during run ${this.#runId}`}: ${message}`,
      );
      return EXIT.noConnection;
    }
    const hint = /agent\.model/.test(message) ? ' (in the side panel: Settings > Agent)' : '';
    err(`tabpilot: the run did not go to the end: ${code}: ${message}${hint}`);
    return EXIT.errorAnswer;
  }

  #onEvent(message: EventMessage): void {
    if (message.event === AgentRunStartedEvent.type) {
      const started = AgentRunStartedEvent.payloadSchema.safeParse(message.data);
      // Ours is the first run that starts as this client after the request went out: one run goes at a time.
      if (
        started.success &&
        this.#runId === undefined &&
        this.#runRequestId !== undefined &&
        message.source === this.#source
      ) {
        this.#runId = started.data.run_id;
        err(
          `run ${started.data.run_id}: ${started.data.task} (model ${started.data.model} by ${started.data.provider}, from the extension's settings)`,
        );
        if (this.#stopping) {
          this.#stop();
        }
      }
      return;
    }
    const runId = fieldOf(message.data, 'run_id');
    if (this.#runId === undefined || runId !== this.#runId) {
      return;
    }
    if (message.event === AgentStepEvent.type) {
      const step = AgentStepEvent.payloadSchema.safeParse(message.data);
      if (step.success) {
        process.stderr.write(stepLines(step.data));
      }
    } else if (message.event === AgentPausedEvent.type) {
      const paused = AgentPausedEvent.payloadSchema.safeParse(message.data);
      if (paused.success) {
        err(paused.data.paused ? 'run paused (resume it in the side panel)' : 'run resumed');
      }
    } else if (message.event === AgentApprovalRequestedEvent.type) {
      const request = AgentApprovalRequestedEvent.payloadSchema.safeParse(message.data);
      if (request.success) {
        void this.#approve(request.data).catch((error: unknown) =>
          err(`tabpilot: could not answer approval ${request.data.approval_id}: ${errorMessageOf(error)}`),
        );
      }
    } else if (message.event === AgentApprovalResolvedEvent.type) {
      const resolved = AgentApprovalResolvedEvent.payloadSchema.safeParse(message.data);
      if (resolved.success) {
        const question = this.#questions.get(resolved.data.approval_id);
        this.#questions.delete(resolved.data.approval_id);
        question?.abort();
        err(`  approval ${resolved.data.approval_id}: ${resolved.data.approved ? 'approved' : 'refused'}`);
      }
    }
  }

  /** Asks on the terminal (or approves with --yes) and sends the answer; without a terminal, the panel answers. */
  async #approve(request: z.infer<typeof AgentApprovalRequestedEvent.payloadSchema>): Promise<void> {
    const question = new AbortController();
    this.#questions.set(request.approval_id, question);
    // The extension redacted the request before it left: the CLI does not know the secrets.
    const answer = await askOnTerminal(request, question.signal, {
      yes: this.#options.yes,
      redact: (text) => text,
      withoutTerminal: 'to_panel',
    });
    if (typeof answer !== 'boolean' || !this.#questions.has(request.approval_id)) {
      return;
    }
    const response = await this.#request('approve', { approval_id: request.approval_id, approved: answer });
    if (!response.ok) {
      err(`tabpilot: approval ${request.approval_id} not answered: ${response.error.message}`);
    }
  }

  /** Ctrl-C: the run stops in the browser and answers how it ended; a second one cancels its request. */
  #interrupt(): void {
    if (this.#stopping) {
      err('tabpilot: cancelling the run (once more ends tabpilot at once)');
      this.#cancel();
      this.#removeSignalHandlers();
      return;
    }
    this.#stopping = true;
    err('tabpilot: stopping the run');
    for (const question of this.#questions.values()) {
      question.abort();
    }
    if (this.#runId !== undefined) {
      this.#stop();
      return;
    }
    // Not started yet (held, or on its way): cancelling its request ends it, and the started event, should
    // it come first, stops the run too.
    this.#cancel();
  }

  /** Without them, the next signal ends the process as it would any program. */
  #removeSignalHandlers(): void {
    process.off('SIGINT', this.#interruptHandler);
    process.off('SIGTERM', this.#interruptHandler);
  }

  #stop(): void {
    void this.#request('stop_run', { run_id: this.#runId ?? null }).then((response) => {
      if (!response.ok) {
        // The run ended between the signal and the stop: its answer is on its way.
        err(`tabpilot: stop_run: ${response.error.message}`);
      }
    });
  }

  #cancel(): void {
    if (this.#runRequestId !== undefined) {
      void this.#request('cancel', { request_id: this.#runRequestId });
    }
  }

  #nextRequestId(): string {
    return `run-cli-${process.pid}-${++this.#nextId}`;
  }

  #request(action: string, params: Record<string, unknown>, id = this.#nextRequestId()): Promise<CommandResponse> {
    return new Promise((resolve) => {
      this.#answers.set(id, resolve);
      this.#client.sendLine(JSON.stringify({ id, action, params }));
    });
  }
}
