import { outcomeText } from '../src/protocol/outcome-text';
import type { ActionOutcome } from '../src/protocol/outcome';
import type { BrowserStateSummary } from '../src/protocol/events/state.events';
import type { PageServer } from './page-server';
import { openSides, type Sides } from './sides';
import { median, round } from './stats';

export interface OutcomeRow {
  page: string;
  op: string;
  /** The action alone, and asked for its outcome (median ms, taken in turns). */
  plain_ms: number;
  with_outcome_ms: number;
  verdict: string;
  /** The outcome as the MCP server and the agent put it, and its tokens at four characters each. */
  outcome_chars: number;
  outcome_tokens: number;
  /** What the model would read instead: the page's state text. */
  state_chars: number;
}

let requestId = 0;

/**
 * What an outcome costs and weighs on the benchmark pages: a click on the bench button (which changes no
 * DOM: the outcome waits out its quiet time) and typing into the bench input (a changed value), each
 * plain and with its outcome, taken in turns; the outcome's size beside the state's.
 */
export async function benchOutcomes(
  pages: PageServer,
  options: { pageNames: string[]; runs: number },
): Promise<OutcomeRow[]> {
  const side = await openSides('bench-outcome');
  const rows: OutcomeRow[] = [];
  try {
    for (const name of options.pageNames) {
      await side.command('navigate', { url: pages.url(name), timeout_ms: 60_000 });
      const state = await side.command<BrowserStateSummary>('state', {});
      const button = state.elements.find((entry) => entry.name === 'Bench click target');
      const input = state.elements.find((entry) => entry.attributes['id'] === 'bench-input');
      if (button === undefined || input === undefined) {
        throw new Error(`${name}: the bench controls are not in the state`);
      }
      const ops: Array<[string, string, (run: number) => Record<string, unknown>]> = [
        ['click the bench button', 'click', () => ({ index: button.index })],
        // Another text each time, so each typing changes the value.
        [
          'type 20 chars (insert_text)',
          'input',
          (run) => ({ index: input.index, text: `tabpilot types ${1000 + run}`, clear: true }),
        ],
      ];
      for (const [op, action, params] of ops) {
        rows.push(await measure(side, name, op, action, params, state.text.length, options.runs));
      }
      process.stdout.write(`  ${name}: done\n`);
    }
  } finally {
    await side.close();
  }
  return rows;
}

async function measure(
  side: Sides,
  page: string,
  op: string,
  action: string,
  paramsOf: (run: number) => Record<string, unknown>,
  stateChars: number,
  runs: number,
): Promise<OutcomeRow> {
  const plain: number[] = [];
  const observed: number[] = [];
  let outcome: ActionOutcome | undefined;
  for (let run = 0; run < runs; run++) {
    let started = performance.now();
    const bare = await side.client.handle({ id: ++requestId, action, params: paramsOf(2 * run) });
    plain.push(performance.now() - started);
    started = performance.now();
    const asked = await side.client.handle({ id: ++requestId, action, params: paramsOf(2 * run + 1), outcome: true });
    observed.push(performance.now() - started);
    if (!bare.ok || !asked.ok || asked.outcome === undefined) {
      throw new Error(`${page}: ${action} failed or answered no outcome: ${JSON.stringify(asked)}`);
    }
    outcome = asked.outcome;
  }
  const text = outcome === undefined ? '' : outcomeText(outcome);
  return {
    page,
    op,
    plain_ms: round(median(plain)),
    with_outcome_ms: round(median(observed)),
    verdict: outcome?.verdict ?? 'none',
    outcome_chars: text.length,
    outcome_tokens: Math.ceil(text.length / 4),
    state_chars: stateChars,
  };
}
