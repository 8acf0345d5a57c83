import type { AgentActionOutcome } from '../protocol/events/agent.events';

/** What a step line shows: an AgentStepReport in-process, or an AgentStepEvent's payload off the wire. */
export interface StepView {
  readonly step: number;
  readonly url: string;
  readonly thinking: string | null;
  readonly actions: readonly AgentActionOutcome[];
  readonly error: string | null;
}

/**
 * One step as `tabpilot run` prints it on stderr: the step, its page and what the model said, then each
 * action with `ok` or its error code and message, then why the step failed as a whole.
 */
export function stepLines(report: StepView): string {
  // A client that holds no tab yet (a native client's first step) has no page: its url is empty.
  const where = report.url === '' ? 'no tab' : report.url;
  const lines = [`step ${report.step} (${where})${report.thinking === null ? '' : `: ${report.thinking}`}`];
  for (const action of report.actions) {
    const call = `${action.name} ${JSON.stringify(action.params ?? {})}`;
    lines.push(
      action.success ? `  ${call} -> ok` : `  ${call} -> ${action.error_code ?? 'error'}: ${action.error ?? ''}`,
    );
  }
  if (report.error !== null) {
    lines.push(`  step failed: ${report.error}`);
  }
  return `${lines.join('\n')}\n`;
}
