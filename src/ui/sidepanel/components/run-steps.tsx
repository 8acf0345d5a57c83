import { outcomeLine, paramsLine, reachHint, type StepView } from '../agent-runs';
import type { WorkerPort } from '../port';
import { StepShot } from './step-shot';

/**
 * A run's steps as they come: the picture of the page the step acted on, the model's next goal and
 * reasoning, each action with its result or error.
 */
export function RunSteps(props: { port: WorkerPort; runId: string; steps: readonly StepView[] }): preact.JSX.Element {
  return (
    <ol class="run-steps" id="run-steps">
      {props.steps.map((step) => {
        const hint = reachHint(step.error);
        return (
          <li key={step.step} class="run-step" data-step={step.step}>
            <div class="run-step-head">
              <strong>Step {step.step}</strong>
              {step.url !== '' && <span class="muted run-step-url"> {step.url}</span>}
            </div>
            {step.screenshot !== null && <StepShot port={props.port} runId={props.runId} step={step.step} />}
            {step.next_goal !== null && <p class="run-goal">Next: {step.next_goal}</p>}
            {step.thinking !== null && <p class="run-thinking muted">{step.thinking}</p>}
            {step.actions.length > 0 && (
              <ul class="run-actions">
                {step.actions.map((action, position) => (
                  <li key={position} class="run-action" data-ok={action.success} data-action={action.name}>
                    <code>{action.name}</code> <span class="muted">{paramsLine(action.params)}</span>
                    <div class={action.success ? 'run-result' : 'run-error error-line'}>
                      {action.success ? '✓ ' : '✗ '}
                      {outcomeLine(action)}
                    </div>
                  </li>
                ))}
              </ul>
            )}
            {step.error !== null && (
              <div class="error-box run-step-error" role="alert">
                <p class="error-line">{step.error}</p>
                {hint !== undefined && <p class="next-step">{hint}</p>}
              </div>
            )}
          </li>
        );
      })}
    </ol>
  );
}
