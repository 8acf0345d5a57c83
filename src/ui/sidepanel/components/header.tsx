import type { PanelStatus } from '../../../protocol/panel-messages';
import type { ConnectionStatus } from '../port';

const CONNECTION_TEXT: Record<ConnectionStatus, string> = {
  connecting: 'connecting',
  connected: 'connected',
  disconnected: 'reconnecting…',
};

/** Where the emergency stop is: idle, running ("Stopping…"), or done until the next attach ("Stopped"). */
export type StopPhase = 'idle' | 'stopping' | 'stopped';

/** The top of the panel: the worker link, the debugger state and the controlled tabs, attach, release, stop. */
export function Header(props: {
  connection: ConnectionStatus;
  status: PanelStatus | undefined;
  windowId: number | undefined;
  stop: StopPhase;
  onAttach: () => void;
  onRelease: (tabId?: string) => void;
  onStop: () => void;
}): preact.JSX.Element {
  const { status } = props;
  const tabs = status?.tabs ?? [];
  return (
    <header class="header">
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
          disabled={props.stop === 'stopping'}
          data-phase={props.stop}
          onClick={props.onStop}
        >
          {props.stop === 'stopping' ? 'Stopping…' : 'Stop'}
        </button>
      </div>
      <p id="debugger-state" class={status?.attached === true ? 'attached' : 'detached'}>
        {props.stop === 'stopped' && status?.attached !== true
          ? 'Stopped: debugger not attached until you attach again'
          : status?.attached === true
            ? `Debugger attached to ${tabs.length} tab${tabs.length === 1 ? '' : 's'}`
            : 'Debugger not attached'}
      </p>
      {status?.user_cancelled === true && (
        <p id="cancelled-banner" class="banner warn" role="status">
          You pressed Cancel on Chrome's debugging bar, so tabpilot let go of every tab. It will not attach again on its
          own: press Attach current tab when you want it back.
        </p>
      )}
      <div class="row">
        <button type="button" id="attach" class="primary" onClick={props.onAttach}>
          Attach current tab
        </button>
        <button type="button" id="release" disabled={tabs.length === 0} onClick={() => props.onRelease()}>
          Release all
        </button>
      </div>
      <ul id="tabs" class="tabs">
        {tabs.map((tab) => (
          <li key={tab.tab_id} data-tab-id={tab.tab_id} class={tab.focused ? 'focused' : ''}>
            <span class="tab-id">{tab.tab_id}</span>
            <span class="tab-title" title={tab.url}>
              {tab.title || tab.url}
            </span>
            {tab.focused && <span class="badge">agent</span>}
            {props.windowId !== undefined && tab.window_id !== null && tab.window_id !== props.windowId && (
              <span class="badge muted">other window</span>
            )}
            <button type="button" class="link" title="Release this tab" onClick={() => props.onRelease(tab.tab_id)}>
              release
            </button>
          </li>
        ))}
      </ul>
      {tabs.length === 0 && (
        <p class="muted hint">
          No tab is controlled. tabpilot works only in tabs you attach, the tabs it opens and the tabs those open.
        </p>
      )}
    </header>
  );
}
