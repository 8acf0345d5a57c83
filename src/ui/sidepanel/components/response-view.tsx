import type { CommandResponse } from '../../../protocol/commands';
import { imageOf, nextStep, refusedField, shownJson } from '../result-words';

/**
 * The answer to one request for people: a one-line summary of what a success did (a screenshot shown as
 * the picture), or the error in words with what to do next; the JSON folded under it. A request the
 * worker could not answer because it restarted (DISCONNECTED) gets a Retry button.
 */
export function ResponseView(props: {
  id: string;
  response: CommandResponse | undefined;
  busy?: boolean;
  /** What is running, for the busy line ("Working: click…"). */
  busyText?: string | undefined;
  /** Show the JSON unfolded (for a reader who wants the protocol answer first). */
  expanded?: boolean;
  /** One line saying what a success did. */
  summary?: string | undefined;
  onRetry?: () => void;
}): preact.JSX.Element | null {
  const { response } = props;
  if (props.busy === true) {
    return (
      <p class="muted" id={`${props.id}-busy`} role="status">
        {props.busyText ?? 'Working…'}
      </p>
    );
  }
  if (response === undefined) {
    return null;
  }
  const retry = !response.ok && response.error.code === 'DISCONNECTED' && props.onRetry !== undefined;
  const image = response.ok ? imageOf(response.result) : undefined;
  const field = refusedField(response);
  const next = response.ok ? undefined : nextStep(response.error.code);
  return (
    <div class="response" id={`${props.id}-view`} data-ok={response.ok}>
      {response.ok ? (
        <p class="ok-line" id={`${props.id}-summary`}>
          ✓ {props.summary ?? 'done'}
        </p>
      ) : (
        <div class="error-box" role="alert" id={`${props.id}-summary`}>
          <p class="error-line">
            <strong>{response.error.code}</strong> {response.error.message}
            {field !== undefined && (
              <>
                {' '}
                (field <code>{field}</code>)
              </>
            )}
          </p>
          {next !== undefined && <p class="next-step">{next}</p>}
        </div>
      )}
      {retry && (
        <button type="button" id={`${props.id}-retry`} class="retry" onClick={props.onRetry}>
          Retry
        </button>
      )}
      {image !== undefined && (
        <img
          class="result-image"
          id={`${props.id}-image`}
          src={image.src}
          alt="The screenshot the action took"
          width={image.width}
          height={image.height}
        />
      )}
      <details open={props.expanded === true}>
        <summary class="muted">{response.ok ? 'result as JSON' : 'response as JSON'}</summary>
        <pre id={props.id} class={response.ok ? 'ok' : 'error'}>
          {shownJson(response)}
        </pre>
      </details>
    </div>
  );
}
