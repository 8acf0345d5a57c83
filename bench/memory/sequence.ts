import { MB } from './probe';

/** What one subject's memory is at one point of the sequence, in MB (null: not measurable there). */
export interface Reading {
  /** The automation process: tabpilot's Node CLI, the extension's worker, or Playwright MCP's server. */
  process_rss_mb: number | null;
  process_heap_mb: number;
  /** The huge page's JS heap (all worlds: the page's own and the automation's). */
  page_heap_mb: number | null;
}

export interface MemoryRow extends Reading {
  subject: string;
  point: string;
}

/** A protocol answer reduced to what the sequence needs (a whole state stays in the process that made it). */
export interface Reduced {
  ok: boolean;
  error?: string;
  chars: number;
  button?: number;
  input?: number;
  tab_id?: string;
}

/**
 * Reduces a command response where it was made. Self-contained (no outer names), because the
 * extension's subject runs it in the worker from its source text.
 */
export function reduceResponse(response: {
  ok: boolean;
  result?: unknown;
  error?: { code: string; message: string };
}): Reduced {
  if (!response.ok) {
    return { ok: false, error: `${response.error?.code ?? ''} ${response.error?.message ?? ''}`, chars: 0 };
  }
  const result = (response.result ?? {}) as {
    text?: unknown;
    tab_id?: unknown;
    elements?: Array<{ index: number; name?: string; attributes?: Record<string, string> }>;
  };
  const elements = Array.isArray(result.elements) ? result.elements : [];
  const button = elements.find((entry) => entry.name === 'Bench click target')?.index;
  const input = elements.find((entry) => entry.attributes?.['id'] === 'bench-input')?.index;
  return {
    ok: true,
    chars: typeof result.text === 'string' ? result.text.length : JSON.stringify(result).length,
    ...(button === undefined ? {} : { button }),
    ...(input === undefined ? {} : { input }),
    ...(typeof result.tab_id === 'string' ? { tab_id: result.tab_id } : {}),
  };
}

export interface BenchUrls {
  huge: string;
  form: string;
  listing: string;
}

/** One automation stack driven through the sequence. */
export interface MemorySubject {
  readonly name: string;
  /** Opens the huge page in the controlled tab. */
  openHuge(url: string): Promise<void>;
  /** One whole-page perception (tabpilot: state with viewport_expansion -1, max_chars 0); its size. */
  wholePage(): Promise<number>;
  /** The `step`-th of the mixed commands (ten kinds in turn). */
  mixed(step: number, urls: BenchUrls): Promise<void>;
  /** Every figure after a forced full collection, unless `collect` is false (then as the process holds it). */
  measure(collect?: boolean): Promise<Reading>;
  close(): Promise<void>;
  /** Calls that answered with an error, where the subject counts them instead of failing. */
  readonly failures?: number;
}

export const MIXED_KINDS = 10;

/** The ten kinds of mixed command, for tabpilot's protocol, over a `send` that reduces each answer. */
export async function tabpilotMixed(
  send: (action: string, params?: Record<string, unknown>) => Promise<Reduced>,
  step: number,
  urls: BenchUrls,
  memo: { button?: number; input?: number; tab?: string },
): Promise<void> {
  const must = async (action: string, params: Record<string, unknown> = {}): Promise<Reduced> => {
    const reduced = await send(action, params);
    if (!reduced.ok) {
      throw new Error(`${action}: ${reduced.error ?? ''}`);
    }
    return reduced;
  };
  switch (step % MIXED_KINDS) {
    case 0:
      await must('navigate', { url: urls.form });
      return;
    case 1: {
      const state = await must('state');
      memo.button = state.button;
      memo.input = state.input;
      return;
    }
    case 2:
      await must('click', { index: memo.button });
      return;
    case 3:
      await must('input', { index: memo.input, text: 'memory bench', clear: true });
      return;
    case 4:
      await must('scroll', { down: true, pages: 1 });
      return;
    case 5:
      await must('search_page', { pattern: 'alpha' });
      return;
    case 6:
      await must('find_elements', { selector: 'button' });
      return;
    case 7: {
      const opened = await must('navigate', { url: urls.listing, new_tab: true });
      memo.tab = opened.tab_id;
      return;
    }
    case 8:
      await must('state');
      return;
    default:
      await must('close', { tab_id: memo.tab });
  }
}

export function reading(process: { rss: number; heap: number } | { heap: number }, pageHeap: number | null): Reading {
  return {
    process_rss_mb: 'rss' in process ? round(process.rss / MB) : null,
    process_heap_mb: round(process.heap / MB),
    page_heap_mb: pageHeap === null ? null : round(pageHeap / MB),
  };
}

function round(value: number): number {
  return Number(value.toFixed(1));
}
