import type { CommandResponse } from '../../../protocol/commands';

/**
 * The answer to one request: the result, or the error with its code. A request the worker could not
 * answer because it restarted (DISCONNECTED) gets a Retry button.
 */
export function ResponseView(props: {
  id: string;
  response: CommandResponse | undefined;
  busy?: boolean;
  /** Show the JSON folded (the header's answers to attach, release, stop). */
  compact?: boolean;
  /** One line saying what a success did. */
  summary?: string | undefined;
  onRetry?: () => void;
}): preact.JSX.Element | null {
  const { response } = props;
  if (props.busy === true) {
    return (
      <p class="muted" id={`${props.id}-busy`}>
        Working…
      </p>
    );
  }
  if (response === undefined) {
    return null;
  }
  const retry = !response.ok && response.error.code === 'DISCONNECTED' && props.onRetry !== undefined;
  return (
    <div class="response">
      {response.ok ? (
        <p class="ok-line">✓ {props.summary ?? 'done'}</p>
      ) : (
        <p class="error-line" role="alert">
          <strong>{response.error.code}</strong> {response.error.message}
        </p>
      )}
      {retry && (
        <button type="button" id={`${props.id}-retry`} class="retry" onClick={props.onRetry}>
          Retry
        </button>
      )}
      <details open={props.compact !== true}>
        <summary class="muted">{response.ok ? 'result' : 'response'}</summary>
        <pre id={props.id} class={response.ok ? 'ok' : 'error'}>
          {JSON.stringify(response, null, 2)}
        </pre>
      </details>
    </div>
  );
}
