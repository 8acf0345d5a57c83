import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchChain, type ChainRow } from './mcp/chain';
import { DEBUG_PAGE, DEBUG_PAGE_NAME } from './mcp/debug-page';
import { startChromeDevtoolsMcp, startPlaywrightMcp, startTabpilot, type McpSubject } from './mcp/servers';
import { sizeOf, type TimedAnswer } from './mcp/timed-client';
import { errorMessageOf } from '../src/shared/errors';
import type { PageServer } from './page-server';
import { median, percentile, round } from './stats';

/**
 * MCP servers side by side, each driven by the MCP SDK's own Client over stdio as a coding agent's app
 * drives it, each in a headless system Chromium of its own with a 1280x720 viewport: tabpilot's
 * `mcp --launch`, Playwright MCP and chrome-devtools-mcp (both pinned from npm, run with their defaults).
 * Per benchmark page: the size of the page-snapshot tool's and the screenshot tool's answers, and the
 * time of navigate, snapshot, screenshot and click (each clicking the page's `#bench-btn` by the
 * reference its own snapshot gives; the page counts the clicks). The pages are taken in turn by each
 * server, page by page, so a change of load falls on all three. Then one call through the whole native
 * chain beside `tabpilot connect --extension`.
 */

export interface McpAnswerRow {
  page: string;
  server: string;
  tool: string;
  text_chars: number;
  /** Characters / 4: a rough rule for English text and markup, not any model's tokenizer. */
  text_tokens_est: number;
  image_px: string;
  /** Width × height / 750: Anthropic's documented estimate of an image's tokens. */
  image_tokens_est: number;
  image_chars: number;
  wire_chars: number;
}

export interface McpTimingRow {
  page: string;
  server: string;
  op: string;
  calls: number;
  median_ms: number;
  p90_ms: number;
  valid: string;
}

/** What a server's tools cost a model on every turn: the JSON of its tools/list's tools array. */
export interface McpToolListRow {
  server: string;
  tools: number;
  chars: number;
  /** Characters / 4. */
  tokens_est: number;
}

export interface McpFigures {
  tool_lists: McpToolListRow[];
  answers: McpAnswerRow[];
  timings: McpTimingRow[];
  chain: ChainRow[];
}

const STARTERS: Record<string, (workDir: string) => Promise<McpSubject>> = {
  tabpilot: startTabpilot,
  'playwright-mcp': startPlaywrightMcp,
  'chrome-devtools-mcp': startChromeDevtoolsMcp,
};

function answerRow(page: string, server: string, tool: string, answer: TimedAnswer): McpAnswerRow {
  const size = sizeOf(answer.result);
  const [width, height] = size.image_px.split('x').map(Number);
  return {
    page,
    server,
    tool,
    text_chars: size.text_chars,
    text_tokens_est: Math.round(size.text_chars / 4),
    image_px: size.image_px,
    image_tokens_est: width === undefined || height === undefined ? 0 : Math.round((width * height) / 750),
    image_chars: size.image_chars,
    wire_chars: size.wire_chars,
  };
}

function timingRow(page: string, server: string, op: string, samples: number[], valid = 'yes'): McpTimingRow {
  return {
    page,
    server,
    op,
    calls: samples.length,
    median_ms: round(median(samples), 1),
    p90_ms: round(percentile(samples, 90), 1),
    valid,
  };
}

interface Repeated {
  ms: number[];
  last: TimedAnswer | undefined;
  /** The calls that answered an error (a server's own per-call limit on a loaded machine): reported, not timed. */
  failures: string[];
}

async function repeat(times: number, call: () => Promise<TimedAnswer>): Promise<Repeated> {
  const ms: number[] = [];
  const failures: string[] = [];
  let last: TimedAnswer | undefined;
  for (let i = 0; i < times; i++) {
    try {
      last = await call();
      ms.push(last.ms);
    } catch (error) {
      failures.push(errorMessageOf(error).split('\n')[0] ?? '');
    }
  }
  return { ms, last, failures };
}

function validity(repeated: Repeated, check = 'yes'): string {
  return repeated.failures.length === 0
    ? check
    : `NO: ${repeated.failures.length} failed (${repeated.failures[0]?.slice(0, 120) ?? ''})`;
}

async function measurePage(
  subject: McpSubject,
  page: string,
  url: string,
  options: { runs: number; clicks: number },
): Promise<{ answers: McpAnswerRow[]; timings: McpTimingRow[] }> {
  // Untimed first visit: a server that starts its browser at the first call pays that here.
  await subject.navigate(url);
  const navigate = await repeat(options.runs, () => subject.navigate(url));
  const whole =
    subject.wholePageSnapshot === undefined ? undefined : await repeat(options.runs, subject.wholePageSnapshot);
  // The default snapshot last: the click takes its reference from it.
  const snapshot = await repeat(options.runs, () => subject.snapshot());
  const screenshot = await repeat(options.runs, () => subject.screenshot());
  let click: Repeated = { ms: [], last: undefined, failures: ['no snapshot to take the reference from'] };
  let counted = 0;
  if (snapshot.last !== undefined) {
    const ref = subject.refOf(snapshot.last.text);
    const before = await subject.benchClicks();
    click = await repeat(options.clicks, () => subject.click(ref));
    counted = (await subject.benchClicks()) - before;
  }
  const answers: Array<[string, Repeated | undefined]> = [
    [subject.snapshotTool, snapshot],
    [`${subject.snapshotTool} (whole page)`, whole],
    [subject.screenshotTool, screenshot],
    ['click', click],
    ['navigate', navigate],
  ];
  return {
    answers: answers.flatMap(([tool, repeated]) =>
      repeated?.last === undefined ? [] : [answerRow(page, subject.name, tool, repeated.last)],
    ),
    timings: [
      timingRow(page, subject.name, 'navigate', navigate.ms, validity(navigate)),
      ...(whole === undefined
        ? []
        : [timingRow(page, subject.name, `snapshot (${subject.snapshotTool}, whole page)`, whole.ms, validity(whole))]),
      timingRow(page, subject.name, `snapshot (${subject.snapshotTool})`, snapshot.ms, validity(snapshot)),
      timingRow(page, subject.name, `screenshot (${subject.screenshotTool})`, screenshot.ms, validity(screenshot)),
      timingRow(
        page,
        subject.name,
        'click (by its own snapshot ref)',
        click.ms,
        validity(click, counted === click.ms.length ? 'yes' : `NO: the page counted ${counted} of ${click.ms.length}`),
      ),
    ],
  };
}

/** How long the debug page is given to log, throw and fetch before its console and network are read. */
const DEBUG_SETTLE_MS = 1_000;

/**
 * The debug page: the size of the console and network tools' answers (the same page, the same messages
 * and requests for each server), and five clicks as five calls beside five in one call (tabpilot's batch).
 */
async function measureDebugPage(
  subject: McpSubject,
  url: string,
  options: { runs: number },
): Promise<{ answers: McpAnswerRow[]; timings: McpTimingRow[] }> {
  await subject.navigate(url);
  await new Promise((resolve) => setTimeout(resolve, DEBUG_SETTLE_MS));
  const consoleAnswer = await repeat(options.runs, () => subject.consoleMessages());
  const networkAnswer = await repeat(options.runs, () => subject.networkRequests());
  const ref = subject.refOf((await subject.snapshot()).text);
  const fiveCalls = async (): Promise<TimedAnswer> => {
    let last = await subject.click(ref);
    let ms = last.ms;
    for (let i = 1; i < 5; i++) {
      last = await subject.click(ref);
      ms += last.ms;
    }
    return { ...last, ms };
  };
  const separate = await repeat(options.runs, fiveCalls);
  const inOneCall = subject.clickInOneCall;
  const batched = inOneCall === undefined ? undefined : await repeat(options.runs, () => inOneCall(ref, 5));
  const answers: Array<[string, Repeated]> = [
    [subject.consoleTool, consoleAnswer],
    [subject.networkTool, networkAnswer],
  ];
  return {
    answers: answers.flatMap(([tool, repeated]) =>
      repeated.last === undefined ? [] : [answerRow(DEBUG_PAGE_NAME, subject.name, tool, repeated.last)],
    ),
    timings: [
      timingRow(
        DEBUG_PAGE_NAME,
        subject.name,
        `console (${subject.consoleTool})`,
        consoleAnswer.ms,
        validity(consoleAnswer),
      ),
      timingRow(
        DEBUG_PAGE_NAME,
        subject.name,
        `network (${subject.networkTool})`,
        networkAnswer.ms,
        validity(networkAnswer),
      ),
      timingRow(DEBUG_PAGE_NAME, subject.name, 'five clicks, five calls', separate.ms, validity(separate)),
      ...(batched === undefined
        ? []
        : [timingRow(DEBUG_PAGE_NAME, subject.name, 'five clicks, one batch call', batched.ms, validity(batched))]),
    ],
  };
}

export async function benchMcp(
  pages: PageServer,
  options: {
    pageNames: string[];
    servers: string[];
    runs: number;
    clicks: number;
    chainRounds: number;
    chainCalls: number;
  },
): Promise<McpFigures> {
  const workDir = mkdtempSync(join(tmpdir(), 'tabpilot-bench-mcp-'));
  const subjects: McpSubject[] = [];
  const answers: McpAnswerRow[] = [];
  const timings: McpTimingRow[] = [];
  const toolLists: McpToolListRow[] = [];
  try {
    for (const name of options.servers) {
      const start = STARTERS[name];
      if (start === undefined) {
        throw new Error(`--mcp-servers: unknown server "${name}" (${Object.keys(STARTERS).join(', ')})`);
      }
      subjects.push(await start(workDir));
    }
    for (const subject of subjects) {
      const list = await subject.toolList();
      toolLists.push({ server: subject.name, ...list, tokens_est: Math.round(list.chars / 4) });
    }
    for (const page of options.pageNames) {
      for (const subject of subjects) {
        const figures = await measurePage(subject, page, pages.url(page), options);
        answers.push(...figures.answers);
        timings.push(...figures.timings);
      }
    }
    pages.addPage(DEBUG_PAGE_NAME, DEBUG_PAGE);
    for (const subject of subjects) {
      const figures = await measureDebugPage(subject, pages.url(DEBUG_PAGE_NAME), options);
      answers.push(...figures.answers);
      timings.push(...figures.timings);
    }
  } finally {
    for (const subject of subjects) {
      await subject.close();
    }
    rmSync(workDir, { recursive: true, force: true });
  }
  const chain = await benchChain(pages, { rounds: options.chainRounds, calls: options.chainCalls });
  return { tool_lists: toolLists, answers, timings, chain };
}
