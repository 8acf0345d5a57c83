import type { PanelTab } from '../../../protocol/panel-messages';

const HEADLINES: Record<Exclude<PanelTab['status'], 'ok'>, string> = {
  needs_person: 'needs you',
  solving: 'a solver is at work',
  crashed: 'crashed',
  unresponsive: 'not responding',
};

/**
 * The tabs the guard watchdogs flag: a challenge only a person can solve ("needs you"), a crashed or
 * stuck page. Show tab brings the tab and its window forward without going through the agent's queue.
 */
export function TabAlerts(props: {
  tabs: readonly PanelTab[];
  onShow: (tabId: string) => void;
}): preact.JSX.Element | null {
  const flagged = props.tabs.filter((tab) => tab.status !== 'ok');
  if (flagged.length === 0) {
    return null;
  }
  return (
    <div id="tab-alerts">
      {flagged.map((tab) => (
        <p
          key={tab.tab_id}
          class="banner warn tab-alert"
          role="alert"
          data-tab-id={tab.tab_id}
          data-status={tab.status}
        >
          <strong>
            {tab.title || tab.tab_id} {tab.status === 'ok' ? '' : HEADLINES[tab.status]}
          </strong>{' '}
          {tab.status_reason}{' '}
          <button type="button" class="primary show-tab" onClick={() => props.onShow(tab.tab_id)}>
            Show tab
          </button>
        </p>
      ))}
    </div>
  );
}
