import { BrowserStateRequestEvent, FindEvent, HighlightElementEvent, ScreenshotEvent } from '../events/state.events';
import { declareAction } from './declare-action';
import { READS, SETS, WRITES_FILE } from './hints';
import { both, count, elementAt, quoted } from './words';

/** Seeing the page: its state (the text with indexed elements), a screenshot, an outline. */
export const SEEING_ACTIONS = [
  declareAction(BrowserStateRequestEvent, {
    name: 'state',
    notForAgent: true,
    title: 'Page state',
    summary:
      'The page as text. Element tools (click, input...) take its [n] indexes. Call it before acting and after changes.',
    category: 'page',
    hints: READS,
    tabGate: 'read',
    panel: {
      label: 'Read the page',
      success: (_p, r) => `read ${quoted(r.title)}: ${count(r.elements.length, 'element')}`,
      activity: () => both('reading the page', 'read the page'),
    },
    mcp: { slim: true, answer: 'state' },
  }),
  // Not read-only: with scroll_to it scrolls the page (to the same place each time).
  declareAction(FindEvent, {
    name: 'find',
    title: 'Find on page',
    summary: 'Text or regex matches in the whole page, with element index and context.',
    category: 'page',
    hints: SETS,
    tabGate: 'read',
    panel: {
      label: 'Find on the page',
      success: (p, r) => `${count(r.total, 'match', 'matches')} for ${quoted(p.text ?? p.regex)}`,
      activity: (p) =>
        both(`finding ${quoted(p.text ?? p.regex)} on the page`, `found ${quoted(p.text ?? p.regex)} on the page`),
    },
  }),
  // Not read-only: with file_name it writes a file (a new one each time; an existing file is kept).
  declareAction(ScreenshotEvent, {
    name: 'screenshot',
    title: 'Screenshot',
    summary: 'Of the viewport, the full page or a clip.',
    category: 'page',
    hints: WRITES_FILE,
    notForAgent: true,
    tabGate: 'read',
    onlyReads: true,
    panel: {
      label: 'Take a screenshot',
      success: (_p, r) =>
        `took a ${r.width}×${r.height} screenshot${r.path === null || r.path === '' ? '' : ` saved as ${r.path}`}`,
      activity: () => both('taking a screenshot', 'took a screenshot'),
    },
    mcp: { answer: 'screenshot' },
  }),
  declareAction(HighlightElementEvent, {
    name: 'highlight',
    notForAgent: true,
    title: 'Highlight',
    summary: 'Outline an element for a person; no index clears it.',
    category: 'page',
    hints: SETS,
    tabGate: 'read',
    panel: {
      label: 'Highlight an element',
      success: (_p, r) => (r.highlighted === null ? 'cleared the highlight' : `highlighted [${r.highlighted}]`),
      activity: (p) =>
        p.index === undefined
          ? both('clearing the highlight', 'cleared the highlight')
          : both(`highlighting ${elementAt(p, {})}`, `highlighted ${elementAt(p, {})}`),
    },
  }),
] as const;
