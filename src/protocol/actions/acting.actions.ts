import {
  ClickElementEvent,
  DragAndDropEvent,
  GetDropdownOptionsEvent,
  HoverElementEvent,
  ScrollEvent,
  ScrollToTextEvent,
  SelectDropdownOptionEvent,
  SendKeysEvent,
  TypeTextEvent,
  UploadFileEvent,
} from '../events/actions.events';
import { HandleDialogEvent } from '../events/dialogs.events';
import { declareAction } from './declare-action';
import { ACTS, MOVES, SETS } from './hints';
import { both, characters, count, elementAt, elementOf, quoted } from './words';

/** What a scroll did, from how far it moved. */
function scrolled(r: { moved_x: number; moved_y: number; at_end: boolean }): string {
  if (r.moved_x === 0 && r.moved_y === 0) {
    return 'did not scroll: already at the end';
  }
  const vertical = Math.abs(r.moved_y) >= Math.abs(r.moved_x);
  const direction = vertical ? (r.moved_y < 0 ? 'up' : 'down') : r.moved_x < 0 ? 'left' : 'right';
  const distance = Math.round(Math.abs(vertical ? r.moved_y : r.moved_x));
  return `scrolled ${direction} ${distance} px${r.at_end ? ' (now at the end)' : ''}`;
}

/** Acting on the page: each may change what it shows, and several may send what cannot be taken back. */
export const ACTING_ACTIONS = [
  declareAction(ClickElementEvent, {
    name: 'click',
    title: 'Click',
    summary: 'Click an element by index, or a viewport point.',
    category: 'page',
    flowStep: 'click',
    hints: ACTS,
    outcome: true,
    tabGate: 'act',
    risk: 'clicked_element',
    panel: {
      label: 'Click',
      element: { widget: 'press', button: 'Click' },
      success: (p, r) =>
        `clicked ${elementOf(p, r)}${r.opened_tab_id === undefined || r.opened_tab_id === null || r.opened_tab_id === '' ? '' : ', which opened a new tab'}`,
      activity: (p, r) => {
        const what =
          p.index === undefined && typeof p.coordinate_x === 'number'
            ? `at (${p.coordinate_x}, ${p.coordinate_y ?? ''})`
            : elementAt(p, r);
        return both(`clicking ${what}`, `clicked ${what}`);
      },
    },
    mcp: { slim: true },
  }),
  // Replaces what the field held (clear), appends when clear is false, and a newline typed as key events
  // presses Enter, which can submit the form.
  declareAction(TypeTextEvent, {
    name: 'input',
    title: 'Type text',
    summary: 'Type into a field (cleared first), or the focused element. <secret>name</secret> types a secret.',
    category: 'page',
    flowStep: 'fill',
    hints: ACTS,
    outcome: true,
    tabGate: 'act',
    panel: {
      label: 'Type text',
      element: { widget: 'type', button: 'Type' },
      success: (p, r) => `typed ${characters(p.text)} into ${elementOf(p, r)}`,
      activity: (p, r) => {
        const into = p.index === undefined ? 'the focused field' : elementAt(p, r);
        return both(`typing ${characters(p.text)} into ${into}`, `typed ${characters(p.text)} into ${into}`);
      },
    },
    mcp: { slim: true },
  }),
  declareAction(ScrollEvent, {
    name: 'scroll',
    title: 'Scroll',
    summary: "Scroll the page, or an element's container.",
    category: 'page',
    flowStep: 'scroll_by',
    hints: MOVES,
    outcome: true,
    tabGate: 'act',
    panel: {
      label: 'Scroll',
      // browser-use's `down` next to `direction`: ticking and unticking it sent `down: false` and the
      // refusal "give direction or down, not both".
      hiddenParams: ['down'],
      success: (_p, r) => scrolled(r),
      activity: (p) => {
        const direction = p.direction ?? (p.down === false ? 'up' : 'down');
        return both(`scrolling ${direction}`, `scrolled ${direction}`);
      },
    },
    mcp: { slim: true },
  }),
  declareAction(SendKeysEvent, {
    name: 'send_keys',
    title: 'Press keys',
    summary: 'Press keys: "Enter", "Control+a", "Tab Tab Enter"; other text is typed.',
    category: 'page',
    flowStep: 'press',
    hints: ACTS,
    outcome: true,
    tabGate: 'act',
    risk: 'enter_key',
    panel: {
      label: 'Press keys',
      success: (p) => `pressed ${p.keys}`,
      activity: (p) => both(`pressing ${p.keys}`, `pressed ${p.keys}`),
    },
    mcp: { slim: true },
  }),
  declareAction(ScrollToTextEvent, {
    name: 'find_text',
    title: 'Scroll to text',
    summary: 'Scroll to a text.',
    category: 'page',
    hints: SETS,
    tabGate: 'act',
    panel: {
      label: 'Scroll to text',
      success: (p, r) => (r.found ? `scrolled to ${quoted(p.text)}` : `did not find ${quoted(p.text)}`),
      activity: (p) => both(`scrolling to ${quoted(p.text)}`, `scrolled to ${quoted(p.text)}`),
    },
  }),
  // Reads the disk, and many upload widgets send the file to the site as soon as it is chosen.
  declareAction(UploadFileEvent, {
    name: 'upload_file',
    title: 'Upload files',
    summary: 'Into a file input, by path or content.',
    category: 'files',
    flowStep: 'upload',
    hints: ACTS,
    outcome: true,
    tabGate: 'act',
    risk: 'file_upload',
    panel: {
      label: 'Upload a file',
      element: { widget: 'upload', button: 'Upload' },
      success: (p, r) => `uploaded ${count(r.files.length, 'file')} to ${elementOf(p, r)}`,
      activity: (p, r) => both(`uploading a file to ${elementAt(p, r)}`, `uploaded a file to ${elementAt(p, r)}`),
    },
  }),
  // Not read-only: the options of an ARIA listbox show only once it is opened.
  declareAction(GetDropdownOptionsEvent, {
    name: 'dropdown_options',
    title: 'Dropdown options',
    summary: 'The options of a dropdown (select, listbox, menu).',
    category: 'page',
    hints: SETS,
    tabGate: 'read',
    onlyReads: true,
    panel: {
      label: 'List dropdown options',
      success: (p, r) => `${count(r.options.length, 'option')} in ${elementOf(p, r)}`,
      activity: (p, r) => both(`reading the options of ${elementAt(p, r)}`, `read the options of ${elementAt(p, r)}`),
    },
  }),
  // Replaces the selection, and a change handler may submit or navigate.
  declareAction(SelectDropdownOptionEvent, {
    name: 'select_dropdown',
    title: 'Pick an option',
    summary: 'Pick a dropdown option by its text or value.',
    category: 'page',
    flowStep: 'select',
    hints: ACTS,
    outcome: true,
    tabGate: 'act',
    panel: {
      label: 'Choose a dropdown option',
      element: { widget: 'choose', button: 'Select' },
      success: (p, r) =>
        p.values === undefined
          ? `chose ${quoted(r.selected?.text ?? p.text)} in ${elementOf(p, r)}`
          : `set ${elementOf(p, r)} to ${p.values.length === 0 ? 'nothing' : p.values.map((value) => quoted(value)).join(', ')}`,
      activity: (p, r) =>
        both(`choosing ${quoted(p.text)} in ${elementAt(p, r)}`, `chose ${quoted(p.text)} in ${elementAt(p, r)}`),
    },
  }),
  declareAction(HoverElementEvent, {
    name: 'hover',
    title: 'Hover',
    summary: 'Move the mouse over an element.',
    category: 'page',
    hints: SETS,
    outcome: true,
    tabGate: 'act',
    panel: {
      label: 'Hover',
      success: (p, r) => `hovered over ${elementOf(p, r)}`,
      activity: (p, r) => both(`hovering over ${elementAt(p, r)}`, `hovered over ${elementAt(p, r)}`),
    },
  }),
  // A drop moves things for good (a card to another list, a file onto a bin).
  declareAction(DragAndDropEvent, {
    name: 'drag',
    title: 'Drag and drop',
    summary: 'Drag an element onto another, or to a point.',
    category: 'page',
    // Not in browser-use's agent either; every step pays for a tool (agent.exclude_actions gives it back).
    notForAgent: true,
    hints: ACTS,
    outcome: true,
    tabGate: 'act',
    panel: {
      label: 'Drag and drop',
      success: (p, r) => `dragged ${elementOf(p, r)}`,
      activity: (p, r) => both(`dragging ${elementAt(p, r)}`, `dragged ${elementAt(p, r)}`),
    },
  }),
  // Accepting a confirm() may be what deletes or sends.
  declareAction(HandleDialogEvent, {
    name: 'handle_dialog',
    title: 'Answer a dialog',
    summary: 'Accept or dismiss the open JavaScript dialog.',
    category: 'page',
    hints: ACTS,
    outcome: true,
    panel: {
      label: 'Answer a dialog',
      success: (_p, r) => `${r.accepted ? 'accepted' : 'dismissed'} the ${r.dialog_type} ${quoted(r.message)}`,
      activity: (p) =>
        p.accept ? both('accepting a dialog', 'accepted a dialog') : both('dismissing a dialog', 'dismissed a dialog'),
    },
  }),
] as const;
