import type { ActionInfo } from './describe';

/** Readable names for the actions, as a person looks for them; an action not listed reads as its name. */
const LABELS: Record<string, string> = {
  navigate: 'Go to a URL',
  go_back: 'Go back',
  go_forward: 'Go forward',
  refresh: 'Reload the page',
  search: 'Search the web',
  wait: 'Wait',
  tabs: 'List the tabs',
  switch: 'Switch to a tab',
  close: 'Close a tab',
  attach: 'Take control of a tab',
  release: 'Let go of a tab',
  stop: 'Stop everything',
  save_storage_state: 'Save cookies and storage',
  load_storage_state: 'Load cookies and storage',
  state: 'Read the page',
  screenshot: 'Take a screenshot',
  highlight: 'Highlight an element',
  extract: 'Extract content',
  search_page: 'Search the page text',
  find_elements: 'Find elements by CSS',
  save_as_pdf: 'Save as PDF',
  start_har: 'Start HAR',
  stop_har: 'Stop HAR',
  evaluate: 'Run JavaScript',
  click: 'Click',
  input: 'Type text',
  scroll: 'Scroll',
  send_keys: 'Press keys',
  find_text: 'Scroll to text',
  upload_file: 'Upload a file',
  dropdown_options: 'List dropdown options',
  select_dropdown: 'Choose a dropdown option',
  hover: 'Hover',
  drag: 'Drag and drop',
};

const GROUPS: Record<string, string> = {
  page: 'Page',
  tabs: 'Tabs',
  content: 'Content',
  files: 'Files',
  session: 'Session',
};
const GROUP_ORDER = ['page', 'tabs', 'content', 'files', 'session'];

/**
 * Params the panel's form leaves out because another one says the same: scroll's `down` (browser-use's
 * form) next to `direction`, where ticking and unticking `down` sent `down: false` and the refusal
 * "give direction or down, not both".
 */
const HIDDEN_PARAMS: Record<string, readonly string[]> = { scroll: ['down'] };

export function actionLabel(name: string): string {
  return LABELS[name] ?? name.replace(/_/g, ' ');
}

export function hiddenParams(name: string): readonly string[] {
  return HIDDEN_PARAMS[name] ?? [];
}

/** The actions by group (page, tabs, content, files, session), in the order describe gives them. */
export function groupedActions(actions: readonly ActionInfo[]): Array<{ label: string; actions: ActionInfo[] }> {
  const groups = new Map<string, ActionInfo[]>();
  for (const action of actions) {
    const key = action.category ?? 'other';
    groups.set(key, [...(groups.get(key) ?? []), action]);
  }
  const order = [...GROUP_ORDER, ...[...groups.keys()].filter((key) => !GROUP_ORDER.includes(key))];
  return order.flatMap((key) => {
    const members = groups.get(key);
    return members === undefined ? [] : [{ label: GROUPS[key] ?? key, actions: members }];
  });
}
