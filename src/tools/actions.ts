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
} from '../protocol/events/actions.events';
import {
  EvaluateJavaScriptEvent,
  ExtractContentEvent,
  FindElementsEvent,
  SavePdfEvent,
  SearchPageEvent,
} from '../protocol/events/content.events';
import { HandleDialogEvent } from '../protocol/events/dialogs.events';
import {
  LoadStorageStateEvent,
  SaveStorageStateEvent,
  StartHarRecordingEvent,
  StopHarRecordingEvent,
} from '../protocol/events/artifacts.events';
import { BrowserStopEvent } from '../protocol/events/lifecycle.events';
import {
  GoBackEvent,
  GoForwardEvent,
  NavigateToUrlEvent,
  RefreshEvent,
  SearchEvent,
  WaitEvent,
} from '../protocol/events/navigation.events';
import {
  BrowserStateRequestEvent,
  HighlightElementEvent,
  ScreenshotEvent,
  type BrowserStateSummary,
} from '../protocol/events/state.events';
import {
  AttachTabEvent,
  CloseTabEvent,
  ListTabsEvent,
  ReleaseTabEvent,
  SwitchTabEvent,
} from '../protocol/events/tabs.events';
import type { Public } from './public-result';
import { ActionRegistry, defineAction, type ActionHints, type AnyActionDefinition } from './registry';

/** Looks, changes nothing (a state, a search of the text). */
const READS: ActionHints = { readOnly: true, destructive: false, idempotent: true, openWorld: false };
/** Changes what the page or browser shows, in a way that doing it again changes nothing more. */
const SETS: ActionHints = { readOnly: false, destructive: false, idempotent: true, openWorld: false };
/** Moves or changes the page; doing it again moves again. */
const MOVES: ActionHints = { readOnly: false, destructive: false, idempotent: false, openWorld: false };
/** Goes out to the web. */
const NAVIGATES: ActionHints = { readOnly: false, destructive: false, idempotent: false, openWorld: true };
/** Writes a new file on the disk each time (an existing file is kept). */
const WRITES_FILE: ActionHints = { readOnly: false, destructive: false, idempotent: false, openWorld: true };
/** May submit, delete or send something that cannot be taken back. */
const ACTS: ActionHints = { readOnly: false, destructive: true, idempotent: false, openWorld: true };

/**
 * Every protocol action, in the order `describe` (and the MCP server's tool list) gives them. Each is
 * its event: the params are the event's payload, the result the event's result, and one watchdog
 * handles it (src/browser/watchdogs/index.ts). To add an action, see CONTRIBUTING.md.
 */
export const ACTIONS: readonly AnyActionDefinition[] = [
  // Navigation
  defineAction({ name: 'navigate', event: NavigateToUrlEvent, category: 'page', hints: NAVIGATES }),
  defineAction({ name: 'go_back', event: GoBackEvent, category: 'page', hints: NAVIGATES }),
  defineAction({ name: 'go_forward', event: GoForwardEvent, category: 'page', hints: NAVIGATES }),
  defineAction({ name: 'refresh', event: RefreshEvent, category: 'page', hints: { ...NAVIGATES, idempotent: true } }),
  defineAction({ name: 'search', event: SearchEvent, category: 'page', hints: { ...NAVIGATES, idempotent: true } }),
  defineAction({ name: 'wait', event: WaitEvent, category: 'page', hints: READS }),

  // Tabs and control
  defineAction({ name: 'tabs', event: ListTabsEvent, category: 'tabs', hints: READS }),
  defineAction({ name: 'switch', event: SwitchTabEvent, category: 'tabs', hints: SETS, tabRequired: true }),
  defineAction({
    name: 'close',
    event: CloseTabEvent,
    category: 'tabs',
    hints: { ...MOVES, destructive: true },
    tabRequired: true,
  }),
  defineAction({ name: 'attach', event: AttachTabEvent, category: 'tabs', hints: SETS }),
  // Releasing what is released already changes nothing.
  defineAction({ name: 'release', event: ReleaseTabEvent, category: 'tabs', hints: SETS }),
  defineAction({
    name: 'stop',
    event: BrowserStopEvent,
    category: 'session',
    hints: { readOnly: false, destructive: true, idempotent: true, openWorld: false },
    preempt: true,
  }),
  // The browser's cookies and every controlled tab's localStorage, not one tab: past the tab gate (the
  // watchdog leaves crashed and stuck pages alone itself).
  defineAction({ name: 'save_storage_state', event: SaveStorageStateEvent, category: 'session', hints: SETS }),
  defineAction({
    name: 'load_storage_state',
    event: LoadStorageStateEvent,
    category: 'session',
    hints: { ...SETS, destructive: true },
  }),

  // Seeing the page
  defineAction({ name: 'state', event: BrowserStateRequestEvent, category: 'page', hints: READS }),
  // Not read-only: with file_name it writes a file (a new one each time; an existing file is kept).
  defineAction({ name: 'screenshot', event: ScreenshotEvent, category: 'page', hints: WRITES_FILE }),
  defineAction({ name: 'highlight', event: HighlightElementEvent, category: 'page', hints: SETS }),

  // Reading the content
  defineAction({ name: 'extract', event: ExtractContentEvent, category: 'content', hints: READS }),
  defineAction({ name: 'search_page', event: SearchPageEvent, category: 'content', hints: READS }),
  defineAction({ name: 'find_elements', event: FindElementsEvent, category: 'content', hints: READS }),
  defineAction({ name: 'save_as_pdf', event: SavePdfEvent, category: 'files', hints: WRITES_FILE }),
  // The network traffic of every controlled tab, not one tab's: past the tab gate like the storage state.
  defineAction({ name: 'start_har', event: StartHarRecordingEvent, category: 'files', hints: WRITES_FILE }),
  defineAction({ name: 'stop_har', event: StopHarRecordingEvent, category: 'files', hints: WRITES_FILE }),
  defineAction({ name: 'evaluate', event: EvaluateJavaScriptEvent, category: 'content', hints: ACTS }),

  // Acting on the page
  defineAction({ name: 'click', event: ClickElementEvent, category: 'page', hints: ACTS }),
  // Replaces what the field held (clear), appends when clear is false, and a newline typed as key events
  // presses Enter, which can submit the form.
  defineAction({ name: 'input', event: TypeTextEvent, category: 'page', hints: ACTS }),
  defineAction({ name: 'scroll', event: ScrollEvent, category: 'page', hints: MOVES }),
  defineAction({ name: 'send_keys', event: SendKeysEvent, category: 'page', hints: ACTS }),
  defineAction({ name: 'find_text', event: ScrollToTextEvent, category: 'page', hints: SETS }),
  // Reads the disk, and many upload widgets send the file to the site as soon as it is chosen.
  defineAction({ name: 'upload_file', event: UploadFileEvent, category: 'files', hints: ACTS }),
  // Not read-only: the options of an ARIA listbox show only once it is opened.
  defineAction({ name: 'dropdown_options', event: GetDropdownOptionsEvent, category: 'page', hints: SETS }),
  // Replaces the selection, and a change handler may submit or navigate.
  defineAction({ name: 'select_dropdown', event: SelectDropdownOptionEvent, category: 'page', hints: ACTS }),
  defineAction({ name: 'hover', event: HoverElementEvent, category: 'page', hints: SETS }),
  // A drop moves things for good (a card to another list, a file onto a bin).
  defineAction({ name: 'drag', event: DragAndDropEvent, category: 'page', hints: ACTS }),
  // Accepting a confirm() may be what deletes or sends.
  defineAction({ name: 'handle_dialog', event: HandleDialogEvent, category: 'page', hints: ACTS }),
];

/** The registry every surface serves (the panel, the CLI, native clients, the MCP server). */
export function createDefaultRegistry(): ActionRegistry {
  return new ActionRegistry(ACTIONS);
}

/** The `state` action's result as a client receives it. */
export type StateSummary = Public<BrowserStateSummary>;
