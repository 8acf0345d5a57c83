import type { PanelStatus, PanelTab } from '../../../protocol/panel-messages';

/** Where the emergency stop is: idle, running ("Stopping…"), or done until the next attach ("Stopped"). */
export type StopPhase = 'idle' | 'stopping' | 'stopped';

/** Who has a tab and what it does there now, as the header shows it. */
export interface TabControl {
  /** The client that holds the tab ("claude-code"), or the one that last acted in it. */
  readonly owner: string | undefined;
  /** Whether `owner` holds the tab (a lease) rather than having acted in it last. */
  readonly holds: boolean;
  /** What runs in the tab now ("clicking [6]"), or undefined when nothing does. */
  readonly doing: string | undefined;
}

function ownerText(control: TabControl): string {
  if (control.owner === undefined) {
    return 'no client has acted here yet';
  }
  return control.holds ? `held by ${control.owner}` : `last used by ${control.owner}`;
}

/** The debugger state, attach and release, and each controlled tab with who controls it and what it does. */
export function Header(props: {
  status: PanelStatus | undefined;
  windowId: number | undefined;
  stop: StopPhase;
  controlOf: (tab: PanelTab) => TabControl;
  onAttach: () => void;
  onRelease: (tabId?: string) => void;
}): preact.JSX.Element {
  const { status } = props;
  const tabs = status?.tabs ?? [];
  return (
    <header class="header">
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
      <ul id="tabs" class="tabs" aria-label="Controlled tabs">
        {tabs.map((tab) => {
          const control = props.controlOf(tab);
          const name = tab.title || tab.url;
          return (
            <li
              key={tab.tab_id}
              data-tab-id={tab.tab_id}
              data-owner={control.owner ?? ''}
              data-busy={control.doing !== undefined}
              class={tab.focused ? 'focused' : ''}
            >
              <div class="tab-line">
                <span class="tab-id">{tab.tab_id}</span>
                <span class="tab-title" title={tab.url}>
                  {name}
                </span>
                {tab.focused && <span class="badge">agent's tab</span>}
                {props.windowId !== undefined && tab.window_id !== null && tab.window_id !== props.windowId && (
                  <span class="badge muted">other window</span>
                )}
                <button
                  type="button"
                  class="link"
                  aria-label={`Release tab ${name}`}
                  title="Release this tab"
                  onClick={() => props.onRelease(tab.tab_id)}
                >
                  release
                </button>
              </div>
              <p class="tab-control muted">
                <span class="tab-owner">{ownerText(control)}</span>
                {' · '}
                <span class={`tab-doing${control.doing === undefined ? '' : ' busy'}`}>
                  {control.doing === undefined ? 'idle' : `now ${control.doing}`}
                </span>
              </p>
            </li>
          );
        })}
      </ul>
      {tabs.length === 0 && (
        <p class="muted hint">
          No tab is controlled. tabpilot works only in tabs you attach, the tabs it opens and the tabs those open.
        </p>
      )}
    </header>
  );
}
