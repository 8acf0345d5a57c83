import { useEffect, useState } from 'preact/hooks';
import type { CommandResponse } from '../../../protocol/commands';
import type { WorkerPort } from '../port';
import type { PanelStore } from '../store';
import { usePanelState } from '../use-panel-state';
import type { PanelTab, TimelineEntry } from '../../../protocol/panel-messages';
import { lastClientIn, runningActions, type Activity } from '../activity';
import { ActionsView } from './actions-view';
import { ControlBar } from './control-bar';
import { FlowsView } from './flows-view';
import { Header, type StopPhase, type TabControl } from './header';
import { NativeClients } from './native-clients';
import { PageView } from './page-view';
import { PersonQuestions } from './person-questions';
import { ResponseView } from './response-view';
import { SettingsView } from './settings-view';
import { TabAlerts } from './tab-alerts';
import { TaskView } from './task-view';
import { TimelineView } from './timeline-view';

const VIEWS = [
  { id: 'page', label: 'Page' },
  { id: 'task', label: 'Task' },
  { id: 'flows', label: 'Flows' },
  { id: 'actions', label: 'Actions' },
  { id: 'timeline', label: 'Timeline' },
  { id: 'settings', label: 'Settings' },
] as const;
type ViewId = (typeof VIEWS)[number]['id'];

/** The side panel: a header for control, and one view at a time below it. */
export function App(props: { port: WorkerPort; store: PanelStore }): preact.JSX.Element {
  const { port } = props;
  const state = usePanelState(props.store);
  const [view, setView] = useState<ViewId>('page');
  const [windowId, setWindowId] = useState<number | undefined>(undefined);
  const [last, setLast] = useState<
    { response: CommandResponse; summary: string | undefined; retry: () => void } | undefined
  >(undefined);
  // The emergency stop as the person sees it: "Stopping…" while it runs, "Stopped" until they attach again.
  const [stop, setStop] = useState<StopPhase>('idle');
  useEffect(() => {
    void port.currentWindowId().then(setWindowId);
  }, [port]);
  const control = (send: () => Promise<CommandResponse>): void => {
    void send().then((response) => setLast({ response, summary: summarize(response), retry: () => control(send) }));
  };
  const running = runningActions(state.timeline.values(), state.status);
  const onStop = (): void => {
    setStop('stopping');
    control(async () => {
      const response = await port.emergencyStop();
      setStop(response.ok ? 'stopped' : 'idle');
      return response;
    });
  };
  const onResume = (): void => control(() => port.resumeClients());
  return (
    <div class="app">
      <ControlBar
        connection={state.connection}
        status={state.status}
        running={running}
        stop={stop}
        onStop={onStop}
        onResume={onResume}
      />
      <Header
        status={state.status}
        windowId={windowId}
        controlOf={(tab) => controlOf(tab, running, state.timeline.values())}
        onAttach={() => {
          setStop('idle');
          control(() => port.attachCurrentTab());
        }}
        onRelease={(tabId) => control(() => port.request('release', tabId === undefined ? {} : { tab_id: tabId }))}
        stop={stop}
      />
      <TabAlerts tabs={state.status?.tabs ?? []} onShow={(tabId) => port.showTab(tabId)} />
      <PersonQuestions questions={state.questions} onAnswer={(id, allow) => port.answerQuestion(id, allow)} />
      <ResponseView id="output" response={last?.response} summary={last?.summary} onRetry={last?.retry} />
      <NativeClients
        native={state.native}
        onDisconnect={(client) => port.disconnectClient(client)}
        onAnswer={(client, allow, options) => port.answerClient(client, allow, options)}
      />
      <nav class="views" role="tablist">
        {VIEWS.map((candidate) => (
          <button
            key={candidate.id}
            type="button"
            role="tab"
            id={`view-${candidate.id}`}
            aria-selected={view === candidate.id}
            onClick={() => setView(candidate.id)}
          >
            {candidate.label}
          </button>
        ))}
      </nav>
      <main class="view">
        {view === 'page' && <PageView port={port} described={state.described} status={state.status} />}
        {view === 'task' && (
          <TaskView
            port={port}
            described={state.described}
            config={state.config}
            agentKeys={state.agentKeys}
            timeline={state.timeline}
          />
        )}
        {view === 'flows' && <FlowsView port={port} described={state.described} />}
        {view === 'actions' && <ActionsView port={port} described={state.described} status={state.status} />}
        {view === 'timeline' && (
          <TimelineView entries={state.timeline} status={state.status} onClear={() => port.clearTimeline()} />
        )}
        {view === 'settings' && (
          <SettingsView port={port} described={state.described} config={state.config} agentKeys={state.agentKeys} />
        )}
      </main>
      <footer class="muted footnote">
        This panel belongs to this window; every window's panel drives the same tabpilot session.
      </footer>
    </div>
  );
}

/** Who holds a tab (a client's lease) or last acted in it, and what runs in it now. */
function controlOf(tab: PanelTab, running: readonly Activity[], timeline: Iterable<TimelineEntry>): TabControl {
  const doing = running.find((activity) => activity.targetId === tab.target_id);
  if (tab.owner !== null) {
    return { owner: tab.owner, holds: true, doing: doing?.doing };
  }
  return { owner: doing?.client ?? lastClientIn(timeline, tab.target_id), holds: false, doing: doing?.doing };
}

/** What attach, release and stop did, in a few words. */
function summarize(response: CommandResponse): string | undefined {
  if (!response.ok) {
    return undefined;
  }
  const result = response.result as {
    title?: string;
    url?: string;
    released_tab_ids?: string[];
    stopped?: boolean;
    cancelled?: number;
  } | null;
  if (result?.stopped === true) {
    return `Stopped: cancelled ${result.cancelled ?? 0} command(s) and detached every tab`;
  }
  if (result?.released_tab_ids !== undefined) {
    return `Released ${result.released_tab_ids.join(', ') || 'nothing'}`;
  }
  if (result?.url !== undefined) {
    return `Attached ${result.title || result.url}`;
  }
  return undefined;
}
