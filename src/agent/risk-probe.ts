import type { AgentRisk } from '../protocol/events/agent.events';
import { declarationOf, type ActionResult } from '../protocol/actions';
import type { StateSummary } from '../tools/actions';
import { errorMessageOf } from '../shared/errors';
import type { ModelAction } from './model';
import type { PageLook } from './page-look';
import { pressesEnter, type RiskFacts } from './risk-classifier';
import { fieldOf } from '../shared/narrow';

type FoundElement = ActionResult<'find_elements'>['elements'][number];

type RunAction = (name: string, params: unknown) => Promise<unknown>;

/**
 * What a click inside a form may send it by: its submit controls, and the clickable things its script
 * may turn into a submit (form.submit() or requestSubmit() in a button's or link's handler). A plain
 * field is left out: clicking into it to type sends nothing.
 */
const SUBMITTERS =
  ':is(button:not([type=reset]), input:is([type=submit], [type=image], [type=button]), a, [role=button], [role=link], [onclick])';

async function find(runAction: RunAction, selector: string, attributes: string[]): Promise<FoundElement[]> {
  const answer = (await runAction('find_elements', {
    selector,
    attributes,
    include_text: false,
    max_results: 1000,
  })) as ActionResult<'find_elements'>;
  return answer.elements;
}

function cssString(value: string): string {
  return `"${value.replace(/["\\]/g, '\\$&').replace(/\n/g, '\\a ')}"`;
}

function absolute(raw: string, base: string): string | null {
  try {
    return new URL(raw, base).href;
  } catch {
    // An action that is no URL sends nowhere we can name.
    return null;
  }
}

/**
 * Which indexed controls submit a form, and where to: the state shows a button, not the form it
 * submits, so the page's forms are asked for (the top document's; a form in a frame is not seen).
 * A form without an action sends to the page itself; a formaction on the control wins over the form's.
 */
async function submitTargets(runAction: RunAction, pageUrl: string): Promise<Map<number, string>> {
  const targets = new Map<number, string>();
  const forms = await find(runAction, 'form[action]', ['action']);
  const actions = new Set(forms.map((form) => form.attributes['action']).filter((value) => value !== undefined));
  for (const action of actions) {
    const target = absolute(action, pageUrl);
    if (target === null) {
      continue;
    }
    for (const control of await find(runAction, `form[action=${cssString(action)}] ${SUBMITTERS}`, [])) {
      if (control.index !== null) {
        targets.set(control.index, target);
      }
    }
  }
  for (const control of await find(runAction, '[formaction]', ['formaction'])) {
    const raw = control.attributes['formaction'];
    const target = raw === undefined ? null : absolute(raw, pageUrl);
    if (control.index !== null && target !== null) {
      targets.set(control.index, target);
    }
  }
  return targets;
}

/**
 * Where the form holding the focused field sends it: its action, or the page itself. Null when no
 * field of a form has focus, or the page cannot be asked. With a look, the tab's activeElement is read,
 * which holds while the window has no focus; without one, `:focus-within`, which then matches nothing.
 */
async function focusedFormTarget(
  runAction: RunAction,
  state: StateSummary,
  look: PageLook | undefined,
  log: ((message: string) => void) | undefined,
): Promise<string | null> {
  try {
    if (look !== undefined) {
      return await look.focusedFormAction(state.tab_id);
    }
    const [form] = await find(runAction, 'form:focus-within', ['action']);
    return form === undefined ? null : absolute(form.attributes['action'] ?? '', state.url);
  } catch (error) {
    log?.(`could not look for the focused field's form: ${errorMessageOf(error)}`);
    return null;
  }
}

/** Where a step back or forward in the tab's history lands; null when unknown (the state or a look is missing). */
async function historyTarget(
  action: ModelAction,
  state: StateSummary,
  look: PageLook,
  log: ((message: string) => void) | undefined,
): Promise<string | null> {
  try {
    return await look.historyNeighbour(state.tab_id, action.name === 'go_back' ? -1 : 1);
  } catch (error) {
    log?.(`could not read the tab's history: ${errorMessageOf(error)}`);
    return null;
  }
}

/**
 * The facts classifyRisk judges `action` by. The page is only asked (find_elements, read-only) for a
 * click by index on a tag that could download or submit, and only for the classes that are on.
 */
export async function probeRiskFacts(options: {
  action: ModelAction;
  state: StateSummary | null;
  visitedDomains: ReadonlySet<string>;
  risky: readonly AgentRisk[];
  runAction: RunAction;
  /** Reads the tab's history and focused field; without it go_back/go_forward are not judged. */
  look?: PageLook;
  log?: (message: string) => void;
}): Promise<RiskFacts> {
  const { action, state, risky } = options;
  const facts = {
    pageUrl: state?.url ?? null,
    elements: state?.elements ?? [],
    visitedDomains: options.visitedDomains,
    downloadIndexes: new Set<number>(),
    submitTargets: new Map<number, string>(),
    focusedFormTarget: null,
    historyTarget: null,
  };
  const keys = fieldOf(action.params, 'keys');
  if (
    declarationOf(action.name)?.risk === 'enter_key' &&
    typeof keys === 'string' &&
    pressesEnter(keys) &&
    state !== null &&
    risky.includes('cross_origin_form')
  ) {
    return {
      ...facts,
      focusedFormTarget: await focusedFormTarget(options.runAction, state, options.look, options.log),
    };
  }
  if (
    declarationOf(action.name)?.risk === 'history_entry' &&
    state !== null &&
    options.look !== undefined &&
    (risky.includes('new_domain') || risky.includes('download'))
  ) {
    return { ...facts, historyTarget: await historyTarget(action, state, options.look, options.log) };
  }
  const index = fieldOf(action.params, 'index');
  if (action.name !== 'click' || typeof index !== 'number' || state === null) {
    return facts;
  }
  const tag = state.elements.find((element) => element.index === index)?.tag;
  try {
    if (risky.includes('download') && (tag === 'a' || tag === 'area')) {
      for (const link of await find(options.runAction, 'a[download], area[download]', [])) {
        if (link.index !== null) {
          facts.downloadIndexes.add(link.index);
        }
      }
    }
    // Any clicked element may be one a form's script submits on (a link, a div with a handler).
    if (risky.includes('cross_origin_form') && tag !== undefined) {
      return { ...facts, submitTargets: await submitTargets(options.runAction, state.url) };
    }
  } catch (error) {
    // A page that cannot be asked (it is navigating away) is judged by its state alone: the click's
    // own link still counts, what only the page's forms would tell is not known.
    options.log?.(`could not look at the page's forms and downloads: ${errorMessageOf(error)}`);
  }
  return facts;
}
