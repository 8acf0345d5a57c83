import type { PanelStatus, TimelineEntry, TimelineEvent } from '../../protocol/panel-messages';

/**
 * Bus events said in plain words, for people: "clicking [6] "Go"" while it runs, "Clicked [6] "Go""
 * once it ran. Only the events a client asks for (the actions) have words; internal events have none.
 */

type Params = Record<string, unknown>;

/** A plain value as text (a string, number or boolean); anything else is the fallback. */
function str(value: unknown, fallback: string | number = ''): string {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
    ? String(value)
    : String(fallback);
}
/** The same act while it runs and after it ran (lowercase; the caller capitalises). */
interface Phrase {
  doing: string;
  did: string;
}

function record(value: unknown): Params {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Params) : {};
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function quoted(value: string, max = 40): string {
  const cut = value.length > max ? `${value.slice(0, max - 1)}…` : value;
  return `"${cut}"`;
}

/** `[6]`, or `[6] "Create account"` when the result names the element. */
function element(payload: Params, result: Params): string {
  const index = typeof payload['index'] === 'number' ? payload['index'] : result['index'];
  const label = text(result['element']);
  const at = typeof index === 'number' ? `[${index}]` : 'an element';
  return label === undefined ? at : `${at} ${quoted(label)}`;
}

/** `example.com/path` from a URL, or the text as given when it is not one. */
export function hostAndPath(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.host === '') {
      return url;
    }
    const path = parsed.pathname === '/' ? '' : parsed.pathname;
    return `${parsed.host}${path}`;
  } catch {
    // Not a URL (a bare host the worker completes with https://): say it as given.
    return url;
  }
}

function both(doing: string, did: string): Phrase {
  return { doing, did };
}

function characters(value: unknown): string {
  const count = typeof value === 'string' ? [...value].length : 0;
  return `${count} character${count === 1 ? '' : 's'}`;
}

function scrollDirection(payload: Params): string {
  if (typeof payload['direction'] === 'string') {
    return payload['direction'];
  }
  return payload['down'] === false ? 'up' : 'down';
}

const PHRASES: Record<string, (payload: Params, result: Params) => Phrase> = {
  NavigateToUrlEvent: (p) => {
    const where = hostAndPath(text(p['url']) ?? 'a page');
    const tab = p['new_tab'] === true ? ' in a new tab' : '';
    return both(`navigating to ${where}${tab}`, `navigated to ${where}${tab}`);
  },
  GoBackEvent: () => both('going back', 'went back'),
  GoForwardEvent: () => both('going forward', 'went forward'),
  RefreshEvent: () => both('reloading the page', 'reloaded the page'),
  SearchEvent: (p) =>
    both(`searching the web for ${quoted(str(p['query']))}`, `searched the web for ${quoted(str(p['query']))}`),
  WaitEvent: (p) => both(`waiting ${str(p['seconds'], 3)} s`, `waited ${str(p['seconds'], 3)} s`),
  ListTabsEvent: () => both('listing the tabs', 'listed the tabs'),
  SwitchTabEvent: () => both('switching tabs', 'switched tabs'),
  CloseTabEvent: () => both('closing a tab', 'closed a tab'),
  AttachTabEvent: () => both('attaching a tab', 'attached a tab'),
  ReleaseTabEvent: (p) =>
    p['target_id'] === undefined
      ? both('releasing every tab', 'released every tab')
      : both('releasing a tab', 'released a tab'),
  BrowserStopEvent: () => both('stopping', 'stopped'),
  BrowserStateRequestEvent: () => both('reading the page', 'read the page'),
  ScreenshotEvent: () => both('taking a screenshot', 'took a screenshot'),
  HighlightElementEvent: (p, r) =>
    p['index'] === undefined
      ? both('clearing the highlight', 'cleared the highlight')
      : both(`highlighting ${element(p, r)}`, `highlighted ${element(p, r)}`),
  ExtractContentEvent: () => both('extracting the content', 'extracted the content'),
  SearchPageEvent: (p) =>
    both(`searching the page for ${quoted(str(p['pattern']))}`, `searched the page for ${quoted(str(p['pattern']))}`),
  FindElementsEvent: (p) => both(`finding ${quoted(str(p['selector']))}`, `found ${quoted(str(p['selector']))}`),
  SavePdfEvent: () => both('saving the page as a PDF', 'saved the page as a PDF'),
  StartHarRecordingEvent: () => both('starting a HAR recording', 'started a HAR recording'),
  StopHarRecordingEvent: () => both('finishing the HAR recording', 'finished the HAR recording'),
  EvaluateJavaScriptEvent: () => both('running a script in the page', 'ran a script in the page'),
  ClickElementEvent: (p, r) => {
    const what =
      p['index'] === undefined && typeof p['coordinate_x'] === 'number'
        ? `at (${p['coordinate_x']}, ${str(p['coordinate_y'])})`
        : element(p, r);
    return both(`clicking ${what}`, `clicked ${what}`);
  },
  TypeTextEvent: (p, r) => {
    const into = p['index'] === undefined ? 'the focused field' : element(p, r);
    return both(`typing ${characters(p['text'])} into ${into}`, `typed ${characters(p['text'])} into ${into}`);
  },
  ScrollEvent: (p) => both(`scrolling ${scrollDirection(p)}`, `scrolled ${scrollDirection(p)}`),
  SendKeysEvent: (p) => both(`pressing ${str(p['keys'])}`, `pressed ${str(p['keys'])}`),
  ScrollToTextEvent: (p) => both(`scrolling to ${quoted(str(p['text']))}`, `scrolled to ${quoted(str(p['text']))}`),
  UploadFileEvent: (p, r) => both(`uploading a file to ${element(p, r)}`, `uploaded a file to ${element(p, r)}`),
  GetDropdownOptionsEvent: (p, r) =>
    both(`reading the options of ${element(p, r)}`, `read the options of ${element(p, r)}`),
  SelectDropdownOptionEvent: (p, r) =>
    both(
      `choosing ${quoted(str(p['text']))} in ${element(p, r)}`,
      `chose ${quoted(str(p['text']))} in ${element(p, r)}`,
    ),
  HoverElementEvent: (p, r) => both(`hovering over ${element(p, r)}`, `hovered over ${element(p, r)}`),
  DragAndDropEvent: (p, r) => both(`dragging ${element(p, r)}`, `dragged ${element(p, r)}`),
};

/** Whether the event is one a client asked for (an action), so it has words. */
export function isAction(type: string): boolean {
  return type in PHRASES;
}

/** The first handler's result, where the words find the element's name. */
function resultOf(event: TimelineEvent): Params {
  return record(event.handlers.find((handler) => handler.result !== undefined)?.result);
}

export function phraseOf(event: TimelineEvent): Phrase | undefined {
  const phrase = PHRASES[event.type];
  return phrase === undefined ? undefined : phrase(record(event.payload), resultOf(event));
}

/** "ClickElementEvent" as "click element" for an internal event with no words of its own. */
function spelledOut(type: string): string {
  return type
    .replace(/Event$/, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase();
}

export function capitalised(words: string): string {
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Who a bus event's source is: "native:claude-code" is claude-code, any panel is "the panel". */
export function clientName(source: string | null): string {
  if (source === null || source === '') {
    return 'tabpilot';
  }
  const [kind, id] = source.split(':', 2) as [string, string | undefined];
  if (kind === 'panel') {
    return 'the panel';
  }
  if (id === undefined || id === '') {
    return kind;
  }
  // Panels, tests and other unnamed clients get a random id; named clients (native, mcp) keep their name.
  return kind === 'native' ? id : `${kind}:${id}`;
}

/** The tab an event acts in, by its target id, as "tab <title>". */
export function tabPhrase(targetId: unknown, status: PanelStatus | undefined): string | undefined {
  if (typeof targetId !== 'string') {
    return undefined;
  }
  const tab = status?.tabs.find((candidate) => candidate.target_id === targetId);
  return tab === undefined ? undefined : `in tab ${quoted(tab.title || hostAndPath(tab.url), 30)}`;
}

export function failed(event: TimelineEvent): boolean {
  return event.status === 'interrupted' || event.handlers.some((handler) => handler.status === 'error');
}

/** A timeline row: `Clicked [6] "Go" in tab "Panel form"`, or the event's own name spelled out. */
export function timelineLine(entry: TimelineEntry, status: PanelStatus | undefined): string {
  if (entry.kind === 'note') {
    return entry.text;
  }
  const phrase = phraseOf(entry);
  if (phrase === undefined) {
    return capitalised(spelledOut(entry.type));
  }
  const where = tabPhrase(record(entry.payload)['target_id'], status);
  const words = entry.status === 'completed' && !failed(entry) ? phrase.did : phrase.doing;
  const line = capitalised([words, where].filter((part) => part !== undefined).join(' '));
  if (failed(entry)) {
    return `${line}: failed`;
  }
  return entry.status === 'completed' ? line : `${line}…`;
}

/** What a client is doing now: the latest action that started and has not finished. */
export interface Activity {
  readonly id: string;
  readonly client: string;
  readonly doing: string;
  readonly targetId: string | undefined;
  /** "the panel is clicking [6] in tab "Checkout"". */
  readonly sentence: string;
}

export function activityOf(event: TimelineEvent, status: PanelStatus | undefined): Activity | undefined {
  const phrase = phraseOf(event);
  if (phrase === undefined) {
    return undefined;
  }
  const payload = record(event.payload);
  const targetId = typeof payload['target_id'] === 'string' ? payload['target_id'] : undefined;
  const client = clientName(event.source);
  const where = tabPhrase(targetId, status);
  return {
    id: event.id,
    client,
    doing: phrase.doing,
    targetId,
    sentence: [client, 'is', phrase.doing, where].filter((part) => part !== undefined).join(' '),
  };
}

/** Every action running now, newest first (an action a client asked for, not one it caused). */
export function runningActions(timeline: Iterable<TimelineEntry>, status: PanelStatus | undefined): Activity[] {
  const running: Activity[] = [];
  for (const entry of timeline) {
    if (entry.kind !== 'event' || entry.status !== 'started' || !isAction(entry.type)) {
      continue;
    }
    const activity = activityOf(entry, status);
    if (activity !== undefined) {
      running.unshift(activity);
    }
  }
  return running;
}

/** The client that last acted in a tab (by target id), from the newest action with that target. */
export function lastClientIn(timeline: Iterable<TimelineEntry>, targetId: string): string | undefined {
  let client: string | undefined;
  for (const entry of timeline) {
    if (entry.kind === 'event' && isAction(entry.type) && record(entry.payload)['target_id'] === targetId) {
      client = clientName(entry.source);
    }
  }
  return client;
}
