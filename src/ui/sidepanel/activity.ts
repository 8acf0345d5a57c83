import { declarationOfEvent, type Phrase } from '../../protocol/actions';
import { hostAndPath, quoted } from '../../protocol/actions/words';
import type { PanelStatus, TimelineEntry, TimelineEvent } from '../../protocol/panel-messages';
import { isRecord } from '../../shared/narrow';

/**
 * Bus events said in plain words, for people: "clicking [6] "Go"" while it runs, "Clicked [6] "Go""
 * once it ran. Only the events a client asks for (the actions) have words; internal events have none.
 */

type Params = Record<string, unknown>;

function record(value: unknown): Params {
  return isRecord(value) ? value : {};
}

/** Whether the event is one a client asked for (an action), so it has words. */
export function isAction(type: string): boolean {
  return declarationOfEvent(type)?.panel.activity !== undefined;
}

/** The first handler's result, where the words find the element's name. */
function resultOf(event: TimelineEvent): Params {
  return record(event.handlers.find((handler) => handler.result !== undefined)?.result);
}

export function phraseOf(event: TimelineEvent): Phrase | undefined {
  // The payload passed the event's schema on the bus, and the result its result schema.
  return declarationOfEvent(event.type)?.panel.activity?.(record(event.payload), resultOf(event));
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
  // split gives at least one part, so the default is never used: it only says so to the type.
  const [kind = '', id] = source.split(':', 2);
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
