import type { CdpSession } from '../../cdp/session';
import { base64ToBytes } from '../../shared/bytes';
import { errorMessageOf, TabpilotError } from '../../shared/errors';
import { isRecord } from '../../shared/narrow';

/**
 * The categories Chrome DevTools' Performance panel records with (TracingDefaultCategories, plus the JS
 * sampling it turns on by default), so the file opens there as one of its own recordings, but for two that
 * would carry what was typed: its screenshots (pictures of the page) and the source text of every script
 * compiled (`disabled-by-default-devtools.v8-source-rundown-sources`), which holds the scripts tabpilot
 * runs in the page to type, with the text in them. DevTools then shows no script source beside the trace.
 */
export const TRACE_CATEGORIES = [
  '-*',
  'blink.console',
  'blink.user_timing',
  'devtools.timeline',
  'disabled-by-default-devtools.target-rundown',
  'disabled-by-default-devtools.timeline',
  'disabled-by-default-devtools.timeline.frame',
  'disabled-by-default-devtools.timeline.stack',
  'disabled-by-default-devtools.v8-source-rundown',
  'disabled-by-default-layout_shift.debug',
  'disabled-by-default-lighthouse',
  'disabled-by-default-v8.cpu_profiler',
  'disabled-by-default-v8.inspector',
  'latencyInfo',
  'loading',
  'navigation',
  'rail',
  'v8.execute',
  'v8',
  'cppgc',
];

/** The longest a stop waits for the browser to hand the trace over. */
const COMPLETE_TIMEOUT_MS = 30_000;
const READ_CHUNK_BYTES = 1024 * 1024;

/** The events of a trace as the browser wrote it: an array, or an object holding traceEvents. */
export function rawEventsOf(text: string): unknown[] {
  const parsed: unknown = JSON.parse(text);
  if (Array.isArray(parsed)) {
    return parsed;
  }
  const events = isRecord(parsed) ? parsed['traceEvents'] : undefined;
  if (!Array.isArray(events)) {
    throw new TabpilotError('INTERNAL', 'the browser handed over a trace without traceEvents');
  }
  return events;
}

async function readStream(session: CdpSession, handle: string): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  for (;;) {
    const chunk = await session.send('IO.read', { handle, size: READ_CHUNK_BYTES });
    text += chunk.base64Encoded === true ? decoder.decode(base64ToBytes(chunk.data), { stream: true }) : chunk.data;
    if (chunk.eof) {
      break;
    }
  }
  return text + decoder.decode();
}

/**
 * One trace being recorded through a tab's CDP session (`Tracing.start`, which chrome.debugger allows as
 * the Node transport does). The browser keeps the events until the end and hands them over as a stream
 * (`ReturnAsStream`, read with `IO.read`), instead of thousands of `dataCollected` events.
 */
export class TraceRecording {
  readonly session: CdpSession;
  readonly startedAt: number;

  private constructor(session: CdpSession) {
    this.session = session;
    this.startedAt = Date.now();
  }

  /** Starts tracing; a browser tracing already (DevTools' panel, another tool) is FORBIDDEN. */
  static async start(session: CdpSession): Promise<TraceRecording> {
    try {
      await session.send('Tracing.start', {
        transferMode: 'ReturnAsStream',
        traceConfig: {
          recordMode: 'recordUntilFull',
          includedCategories: TRACE_CATEGORIES.filter((category) => !category.startsWith('-')),
          excludedCategories: TRACE_CATEGORIES.filter((category) => category.startsWith('-')).map((category) =>
            category.slice(1),
          ),
        },
      });
    } catch (error) {
      if (/already/i.test(errorMessageOf(error))) {
        throw new TabpilotError(
          'FORBIDDEN',
          'the browser is recording a trace already (DevTools Performance panel or another tool): stop that one first',
          { cause: error },
        );
      }
      throw error;
    }
    return new TraceRecording(session);
  }

  /** Ends the trace and reads it whole: the raw events, in the browser's order. */
  async stop(): Promise<unknown[]> {
    const handle = await this.#end();
    if (handle === undefined) {
      throw new TabpilotError('INTERNAL', 'the browser ended the trace without handing it over');
    }
    try {
      return rawEventsOf(await readStream(this.session, handle));
    } finally {
      await this.session.send('IO.close', { handle });
    }
  }

  /** Ends the trace and throws it away unread. */
  async discard(): Promise<void> {
    const handle = await this.#end();
    if (handle !== undefined) {
      await this.session.send('IO.close', { handle });
    }
  }

  async #end(): Promise<string | undefined> {
    // Both awaited together: a failed end leaves no wait unobserved.
    const [, complete] = await Promise.all([
      this.session.send('Tracing.end'),
      this.session.waitFor('Tracing.tracingComplete', { timeoutMs: COMPLETE_TIMEOUT_MS }),
    ]);
    return complete.stream;
  }
}
