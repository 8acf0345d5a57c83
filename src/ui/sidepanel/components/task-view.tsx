import { useState } from 'preact/hooks';
import type { CommandResponse } from '../../../protocol/commands';
import type { AgentKeysPresent, TimelineEntry } from '../../../protocol/panel-messages';
import { liveRun, runKey, runsIn } from '../agent-runs';
import { modelLine, modelSettingsOf } from '../agent-settings';
import type { Described } from '../describe';
import type { WorkerPort } from '../port';
import { HistoryView } from './history-view';
import { PastRuns } from './past-runs';
import { ResponseView } from './response-view';
import { RunPanel } from './run-panel';

/**
 * The task box: a person types a task, the built-in agent does it in their browser (the `run` action in
 * the worker), and the run shows here step by step from the Agent* events the timeline holds, with
 * Pause, Resume and Stop; past runs below can be opened.
 */
export function TaskView(props: {
  port: WorkerPort;
  described: Described | undefined;
  config: Record<string, unknown> | undefined;
  agentKeys: AgentKeysPresent | undefined;
  timeline: ReadonlyMap<string, TimelineEntry>;
}): preact.JSX.Element {
  const { port } = props;
  const [task, setTask] = useState('');
  // The run request this panel has in flight, and the newest run (as it stood) before it.
  const [request, setRequest] = useState<{ before: string | undefined } | undefined>(undefined);
  const [refused, setRefused] = useState<CommandResponse | undefined>(undefined);
  const [opened, setOpened] = useState<string | undefined>(undefined);
  const runs = runsIn(props.timeline.values());
  const live = liveRun(runs);
  const newest = runs.at(-1);
  const settings = modelSettingsOf(props.config);
  // A worker whose `run` takes follow_up_of lets a finished run go on with a new task.
  const followUps = props.described?.action('run')?.schema.properties?.['follow_up_of'] !== undefined;
  const model = modelLine(settings, props.agentKeys?.[settings.provider] ?? false);
  const starting = request !== undefined && runKey(newest) === request.before;
  // A run the person opened from the list: from the timeline while it holds it, else from the kept runs.
  const shown = opened === undefined ? newest : runs.find((run) => run.runId === opened);
  const start = (text: string, followUpOf?: string): void => {
    const started = port.start(
      'run',
      { task: text, ...(followUpOf === undefined ? {} : { follow_up_of: followUpOf }) },
      'run',
    );
    setRefused(undefined);
    setOpened(undefined);
    setRequest({ before: runKey(newest) });
    void started.response.then((response) => {
      setRequest(undefined);
      // A run that ends answers with its result, which its events show already; a refusal shows here.
      if (!response.ok && response.error.code !== 'CANCELLED') {
        setRefused(response);
      }
    });
  };
  return (
    <section class="task-view" id="task-view">
      <p id="task-model" class={model.ok ? 'muted' : 'warn-text'}>
        Model: {model.text}
      </p>
      <form
        id="task-form"
        onSubmit={(event) => {
          event.preventDefault();
          if (task.trim() !== '') {
            start(task.trim());
          }
        }}
      >
        <textarea
          id="task-input"
          rows={3}
          placeholder="What should the agent do in this browser?"
          value={task}
          onInput={(event) => setTask((event.target as HTMLTextAreaElement).value)}
        />
        <div class="row">
          <button
            type="submit"
            id="run-task"
            class="primary"
            disabled={task.trim() === '' || live !== undefined || starting}
          >
            Run
          </button>
          {starting && (
            <span id="run-starting" class="muted" role="status">
              Starting…
            </span>
          )}
        </div>
      </form>
      <ResponseView id="run-refused" response={refused} />
      {opened !== undefined && shown === undefined && (
        <HistoryView key={opened} port={port} described={props.described} runId={opened} />
      )}
      {shown !== undefined && !starting && (
        <RunPanel
          key={shown.runId}
          port={port}
          described={props.described}
          run={shown}
          live={shown === live}
          onFollowUp={shown === newest && followUps ? (text) => start(text, shown.runId) : undefined}
        />
      )}
      <PastRuns
        port={port}
        described={props.described}
        runs={runs}
        opened={opened ?? shown?.runId}
        onOpen={setOpened}
      />
    </section>
  );
}
