import { StartHarRecordingEvent, StopHarRecordingEvent } from '../events/artifacts.events';
import {
  EvaluateJavaScriptEvent,
  ExtractContentEvent,
  FindElementsEvent,
  SavePdfEvent,
  SearchPageEvent,
} from '../events/content.events';
import { declareAction } from './declare-action';
import { ACTS, READS, WRITES_FILE } from './hints';
import { both, count, quoted } from './words';

/** Reading the content without a model, the files made of it, and script in the page. */
export const CONTENT_ACTIONS = [
  declareAction(ExtractContentEvent, {
    name: 'extract',
    title: 'Read the page as markdown',
    category: 'content',
    hints: READS,
    onlyReads: true,
    panel: {
      label: 'Extract content',
      success: () => 'extracted the content',
      activity: () => both('extracting the content', 'extracted the content'),
    },
    mcp: {
      note: 'A long page comes back in parts (start_from_char) or, past the answer budget, as a linked file.',
      answer: 'pages',
    },
  }),
  declareAction(SearchPageEvent, {
    name: 'search_page',
    title: 'Find text in the page',
    category: 'content',
    hints: READS,
    onlyReads: true,
    panel: {
      label: 'Search the page text',
      success: (p, r) => `${count(r.total, 'match', 'matches')} for ${quoted(p.pattern)}`,
      activity: (p) =>
        both(`searching the page for ${quoted(p.pattern)}`, `searched the page for ${quoted(p.pattern)}`),
    },
  }),
  declareAction(FindElementsEvent, {
    name: 'find_elements',
    title: 'Find elements by CSS selector',
    category: 'content',
    hints: READS,
    onlyReads: true,
    panel: {
      label: 'Find elements by CSS',
      success: (p, r) => `${count(r.elements.length, 'element')} match ${quoted(p.selector)}`,
      activity: (p) => both(`finding ${quoted(p.selector)}`, `found ${quoted(p.selector)}`),
    },
  }),
  declareAction(SavePdfEvent, {
    name: 'save_as_pdf',
    title: 'Save the page as PDF',
    category: 'files',
    hints: WRITES_FILE,
    panel: {
      label: 'Save as PDF',
      success: (_p, r) => `saved the page as a PDF${r.path === '' ? '' : `: ${r.path}`}`,
      activity: () => both('saving the page as a PDF', 'saved the page as a PDF'),
    },
    mcp: { note: 'The answer links the file.', answer: 'pdf' },
  }),
  // The network traffic of every controlled tab, not one tab's: past the tab gate like the storage state.
  declareAction(StartHarRecordingEvent, {
    name: 'start_har',
    personPower: 'record_traffic',
    title: 'Start recording the network to a HAR',
    category: 'files',
    hints: WRITES_FILE,
    panel: {
      label: 'Start HAR',
      success: (_p, r) => `recording the network to ${r.path}`,
      activity: () => both('starting a HAR recording', 'started a HAR recording'),
    },
  }),
  declareAction(StopHarRecordingEvent, {
    name: 'stop_har',
    title: 'Stop the HAR recording and link the file',
    category: 'files',
    hints: WRITES_FILE,
    panel: {
      label: 'Stop HAR',
      success: (_p, r) => `recorded ${count(r.entries, 'request')} to ${r.path}`,
      activity: () => both('finishing the HAR recording', 'finished the HAR recording'),
    },
    mcp: { note: 'The answer links the HAR file rather than putting the traffic in the answer.', answer: 'har' },
  }),
  declareAction(EvaluateJavaScriptEvent, {
    name: 'evaluate',
    title: 'Run JavaScript in the page',
    category: 'content',
    hints: ACTS,
    risk: 'page_script',
    panel: {
      label: 'Run JavaScript',
      success: () => 'ran the script',
      activity: () => both('running a script in the page', 'ran a script in the page'),
    },
  }),
] as const;
