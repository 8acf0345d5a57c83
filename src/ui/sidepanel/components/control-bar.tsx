import type { PanelStatus } from '../../../protocol/panel-messages';
import { capitalised, type Activity } from '../activity';
import type { ConnectionStatus } from '../port';
import type { StopPhase } from './header';

const CONNECTION_TEXT: Record<ConnectionStatus, string> = {
  connecting: 'connecting',
  connected: 'connected',
  disconnected: 'reconnecting…',
};

function nowText(running: readonly Activity[], status: PanelStatus | undefined, stop: StopPhase): string {
  const [latest, ...others] = running;
  if (latest !== undefined) {
    const more = others.length === 0 ? '' : ` (and ${others.length} more action${others.length === 1 ? '' : 's'})`;
    // A client's own name keeps its case ("mcp:claude-code is…"); "the panel is…" starts a sentence.
    const sentence = latest.sentence.startsWith('the ') ? capitalised(latest.sentence) : latest.sentence;
    return `${sentence}${more}`;
  }
  if (stop === 'stopped' && status?.attached !== true) {
    return 'Stopped. Nothing runs until you attach a tab again.';
  }
  const count = status?.tabs.length ?? 0;
  return count === 0
    ? 'Idle: no tab is controlled.'
    : `Idle: ${count} tab${count === 1 ? '' : 's'} controlled, nothing running.`;
}

/**
 * The strip that stays at the top of the panel however far it scrolls: the worker link, the emergency
 * stop, and what is running now in plain words with who runs it.
 */
export function ControlBar(props: {
  connection: ConnectionStatus;
  status: PanelStatus | undefined;
  running: readonly Activity[];
  stop: StopPhase;
  onStop: () => void;
  onResume: () => void;
}): preact.JSX.Element {
  const hold = props.status?.hold ?? null;
  const busy = props.running.length > 0;
  return (
    <div class="control-bar" id="control-bar">
      <div class="title-row">
        <h1>tabpilot</h1>
        <span id="status" class="status" data-status={props.connection}>
          {CONNECTION_TEXT[props.connection]}
        </span>
        <button
          type="button"
          id="stop"
          class="danger"
          title="Emergency stop (Alt+Shift+S)"
          aria-keyshortcuts="Alt+Shift+S"
          disabled={props.stop === 'stopping'}
          data-phase={props.stop}
          onClick={props.onStop}
        >
          {props.stop === 'stopping' ? 'Stopping…' : 'Stop'}
        </button>
        {hold !== null && (
          <button
            type="button"
            id="resume"
            class="primary"
            title="Let programs attach, navigate and open tabs again"
            aria-describedby="hold"
            onClick={props.onResume}
          >
            Resume
          </button>
        )}
      </div>
      {hold !== null && (
        <p id="hold" class="banner warn" role="status">
          Programs are held: {hold}. No program may attach, navigate or open a tab until you press Resume.
        </p>
      )}
      <p
        id="now"
        class={`now${busy ? ' busy' : ''}`}
        role="status"
        aria-live="polite"
        data-running={props.running.length}
      >
        {busy && <span class="now-dot" aria-hidden="true" />}
        {nowText(props.running, props.status, props.stop)}
      </p>
    </div>
  );
}
