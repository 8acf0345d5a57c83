import { z } from 'zod';
import { defineEvent } from '../define-event';
import { TargetId } from '../events/navigation.events';
import { Flow } from '../flow';
import { OutputFileName } from '../output-file-name';
import { declareAction } from './declare-action';
import { SETS, WRITES_FILE } from './hints';
import { both, count } from './words';

export const RecordFlowStartEvent = defineEvent('RecordFlowStartEvent', {
  payload: {
    target_id: TargetId,
    name: z.string().min(1).max(200).default('Recorded flow').meta({ details: "The flow's name" }),
  },
  result: z.strictObject({ recording: z.literal(true), url: z.string() }),
  timeoutMs: 15_000,
  description:
    "Start recording the person's own input in a tab as a flow (docs/flows.md, Recording): their clicks, typing, choices in lists, files chosen, Enter, Escape and Tab, and the tab's navigations, each element named by its locator; record_stop saves it. Only the person's trusted input counts, never a script's. One recording at a time; the person's alone (a program is refused FORBIDDEN: it would watch what a person types).",
});

export const RecordFlowStopEvent = defineEvent('RecordFlowStopEvent', {
  payload: {
    file_name: OutputFileName.optional().meta({
      details:
        'The flow file, relative to the output folder (output_dir in Node, Downloads/tabpilot in the extension); .json is added when missing; default flow-<date>-<time>.json',
    }),
  },
  result: z.strictObject({ flow: Flow, path: z.string() }),
  timeoutMs: 15_000,
  description:
    "Stop recording: the flow of the person's steps (a typed secret as its sensitive_data name, a password as a parameter, never its value), checked by the flow schema and saved as a .json file under the output folder. Without a recording: ELEMENT_NOT_FOUND.",
});

/** Recording a person's own steps as a flow file (src/browser/flows/). */
export const FLOW_ACTIONS = [
  declareAction(RecordFlowStartEvent, {
    name: 'record_start',
    notForAgent: true,
    title: 'Record a flow',
    summary: "Record the person's input in a tab as a flow.",
    category: 'page',
    hints: SETS,
    tabGate: 'read',
    personOnly: 'always',
    panel: {
      label: 'Record a flow',
      success: () => 'recording',
      activity: () => both('starting a flow recording', 'recording a flow'),
    },
  }),
  declareAction(RecordFlowStopEvent, {
    name: 'record_stop',
    notForAgent: true,
    title: 'Stop recording',
    summary: 'Stop recording; save the flow file.',
    category: 'page',
    hints: WRITES_FILE,
    personOnly: 'always',
    panel: {
      label: 'Stop recording the flow',
      success: (_p, r) => `${count(r.flow.steps.length, 'step')} saved to ${r.path}`,
      activity: () => both('saving the recorded flow', 'saved the recorded flow'),
    },
  }),
] as const;
