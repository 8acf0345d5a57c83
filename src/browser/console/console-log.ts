import type { Protocol } from 'devtools-protocol';
import type { ConsoleLevel } from '../../protocol/actions/content.actions';
import { capped, firstLine, renderArgument, renderArguments, renderStack } from './console-text';

/** The messages a tab keeps, newest last; past it the oldest go (the answer says how many went). */
export const MESSAGES_PER_TAB = 500;

/** One message as `console_messages` answers it. */
export interface ConsoleMessage {
  level: ConsoleLevel;
  /** console: a console.* call; exception: an uncaught exception or an unhandled rejection; browser: the browser's own (a failed load, a deprecation). */
  source: 'console' | 'exception' | 'browser';
  text: string;
  /** Where it was logged or thrown (1-based line and column); null when the browser does not say. */
  url: string | null;
  line: number | null;
  column: number | null;
  /** For errors and exceptions: the nearest frames, as V8 prints them. */
  stack: string | null;
}

export interface ConsoleFilter {
  /** Empty: every level. */
  levels: readonly ConsoleLevel[];
  textContains: string | undefined;
  /** Only messages logged after this mark (an earlier answer's `mark`). */
  sinceMark: number | undefined;
  max: number;
}

export interface ConsoleAnswer {
  messages: ConsoleMessage[];
  total: number;
  dropped: number;
  mark: number;
}

interface Kept {
  message: ConsoleMessage;
  /** The tab's running count when it was logged: what a mark compares against. */
  seq: number;
  /** An exception's id, so a rejection handled late (Runtime.exceptionRevoked) can be taken back. */
  exceptionId: number | undefined;
}

interface TabMessages {
  kept: Kept[];
  dropped: number;
  /** Counts every message the tab ever logged, across its pages: a mark stays meaningful after a navigation. */
  seq: number;
  /** Errors since the tab's last state took the count; a navigation does not reset it. */
  errorsUntaken: number;
}

/**
 * The console of each tab since its page last loaded, bounded per tab: what a coding agent asks for when
 * a page misbehaves (the exception behind a dead button, the warning before a blank screen). Fed by the
 * Runtime and Log domains' events; a new document in the tab's main frame starts its list anew.
 */
export class ConsoleLog {
  readonly #tabs = new Map<string, TabMessages>();

  #tab(targetId: string): TabMessages {
    let tab = this.#tabs.get(targetId);
    if (tab === undefined) {
      tab = { kept: [], dropped: 0, seq: 0, errorsUntaken: 0 };
      this.#tabs.set(targetId, tab);
    }
    return tab;
  }

  /** A closed tab. */
  forget(targetId: string): void {
    this.#tabs.delete(targetId);
  }

  /** A new page in the tab: the messages of the one before go; the marks handed out stay valid. */
  pageChanged(targetId: string): void {
    const tab = this.#tabs.get(targetId);
    if (tab !== undefined) {
      tab.kept = [];
      tab.dropped = 0;
    }
  }

  #add(targetId: string, message: ConsoleMessage, exceptionId?: number): void {
    const tab = this.#tab(targetId);
    tab.seq += 1;
    if (message.level === 'error') {
      tab.errorsUntaken += 1;
    }
    tab.kept.push({ message, seq: tab.seq, exceptionId });
    if (tab.kept.length > MESSAGES_PER_TAB) {
      tab.kept.shift();
      tab.dropped += 1;
    }
  }

  consoleCalled(targetId: string, params: Protocol.Runtime.ConsoleAPICalledEvent): void {
    // The end of a group says nothing by itself.
    if (params.type === 'endGroup') {
      return;
    }
    const level = levelOfCall(params.type);
    const text =
      params.type === 'assert' ? `Assertion failed: ${renderArguments(params.args)}` : renderArguments(params.args);
    this.#add(targetId, {
      level,
      source: 'console',
      text: capped(text === '' && params.type === 'trace' ? 'console.trace' : text),
      ...locationOf(params.stackTrace?.callFrames[0]),
      stack: level === 'error' || params.type === 'trace' ? renderStack(params.stackTrace) : null,
    });
  }

  exceptionThrown(targetId: string, params: Protocol.Runtime.ExceptionThrownEvent): void {
    const details = params.exceptionDetails;
    const exception = details.exception;
    const thrown = exception === undefined ? '' : firstLine(renderArgument(exception));
    const top = details.stackTrace?.callFrames[0];
    this.#add(
      targetId,
      {
        level: 'error',
        source: 'exception',
        text: capped(thrown === '' ? details.text : `${details.text} ${thrown}`),
        ...(top === undefined
          ? {
              url: details.url ?? null,
              line: details.lineNumber + 1,
              column: details.columnNumber + 1,
            }
          : locationOf(top)),
        stack: renderStack(details.stackTrace) ?? stackOfError(exception),
      },
      details.exceptionId,
    );
  }

  /** A rejection handled after it was reported: it is no longer an error of the page. */
  exceptionRevoked(targetId: string, exceptionId: number): void {
    const tab = this.#tabs.get(targetId);
    if (tab !== undefined) {
      tab.kept = tab.kept.filter((kept) => kept.exceptionId !== exceptionId);
    }
  }

  browserEntry(targetId: string, entry: Protocol.Log.LogEntry): void {
    this.#add(targetId, {
      level: entry.level === 'verbose' ? 'debug' : entry.level,
      source: 'browser',
      text: capped(entry.text),
      url: entry.url ?? null,
      line: entry.lineNumber === undefined ? null : entry.lineNumber + 1,
      column: null,
      stack: entry.level === 'error' ? renderStack(entry.stackTrace) : null,
    });
  }

  /** The errors the tab logged since the last call (for the state), counting anew from now. */
  takeErrorCount(targetId: string): number {
    const tab = this.#tabs.get(targetId);
    if (tab === undefined) {
      return 0;
    }
    const errors = tab.errorsUntaken;
    tab.errorsUntaken = 0;
    return errors;
  }

  /**
   * The tab's messages, oldest first, filtered; `total` counts every match, `dropped` what the bound let
   * go, `mark` the newest message so far, for `sinceMark` next time.
   */
  list(targetId: string, filter: ConsoleFilter): ConsoleAnswer {
    const tab = this.#tabs.get(targetId);
    if (tab === undefined) {
      return { messages: [], total: 0, dropped: 0, mark: 0 };
    }
    const needle = filter.textContains?.toLowerCase();
    const levels = new Set(filter.levels);
    const since = filter.sinceMark ?? 0;
    const matching = tab.kept
      .filter((kept) => kept.seq > since)
      .filter((kept) => levels.size === 0 || levels.has(kept.message.level))
      .filter((kept) => needle === undefined || kept.message.text.toLowerCase().includes(needle))
      .map((kept) => kept.message);
    return {
      messages: filter.max >= matching.length ? matching : matching.slice(-filter.max),
      total: matching.length,
      dropped: tab.dropped,
      mark: tab.seq,
    };
  }
}

/** The console calls that are not plain logs; the rest (log, dir, table, trace, count, group...) are. */
const CALL_LEVELS: Partial<Record<Protocol.Runtime.ConsoleAPICalledEvent['type'], ConsoleLevel>> = {
  error: 'error',
  assert: 'error',
  warning: 'warning',
  info: 'info',
  debug: 'debug',
};

function levelOfCall(type: Protocol.Runtime.ConsoleAPICalledEvent['type']): ConsoleLevel {
  return CALL_LEVELS[type] ?? 'log';
}

function locationOf(frame: Protocol.Runtime.CallFrame | undefined): Pick<ConsoleMessage, 'url' | 'line' | 'column'> {
  if (frame === undefined) {
    return { url: null, line: null, column: null };
  }
  return { url: frame.url === '' ? null : frame.url, line: frame.lineNumber + 1, column: frame.columnNumber + 1 };
}

/** An Error's own stack (its description past the first line) when the exception came without a stack trace. */
function stackOfError(exception: Protocol.Runtime.RemoteObject | undefined): string | null {
  if (exception?.subtype !== 'error' || exception.description === undefined) {
    return null;
  }
  const lines = exception.description.split('\n').slice(1);
  return lines.length === 0 ? null : capped(lines.join('\n'));
}
