/**
 * An agent's run as a flow (src/protocol/flow.ts): what `rerun` replays through the one `replay` action,
 * and what `run_history` gives as the run's flow file. Each acting action that succeeded becomes a step,
 * its element named by the locator derived in the page when the action ran (as the person's recording
 * names one), its expectation what the action's verified outcome saw. No secret's value ever reaches the
 * flow: a typed secret is its placeholder, a password field's value a parameter, and a locator, URL or
 * text that would hold a secret is not kept as it is. docs/agent.md says which actions become which steps.
 */
import type { ElementLocator } from '../dom/payload';
import { declarationOf } from '../protocol/actions';
import type { ActionOutcome } from '../protocol/outcome';
import {
  FieldParams,
  FLOW_FORMAT,
  FLOW_LIMITS,
  FLOW_VERSION,
  parseFlow,
  sameLocator,
  type Flow,
  type FlowExpectation,
  type FlowLocator,
  type FlowStep,
  type FlowValue,
} from '../protocol/flow';
import { secretNameOf } from '../browser/flows/flow-recording';
import type { SensitiveData } from '../browser/secrets';
import { fieldOf, stringFieldOf } from '../shared/narrow';
import { redactString, secretsOf, type Secret } from '../shared/redact';

/** One of the model's actions as it ran: what the run's flow is made of. */
export interface ActedAction {
  readonly name: string;
  readonly params: unknown;
  readonly success: boolean;
  /** What it did to the page, for an acting action that has one. */
  readonly outcome: ActionOutcome | undefined;
  /** Its raw result (a tab switch's URL is read from it). */
  readonly result: unknown;
  /** The element its `index` named, taken right before it ran; null without one. */
  readonly element: ElementLocator | null;
  /** The URL of the page it was chosen on. */
  readonly url: string;
}

/** Where the outcome's text was cut short: a cut text is not what the page shows. */
const CUT_MARK = '…';
const PLACEHOLDER = /^<secret>([^<]+)<\/secret>$/;
const DIRECTIONS = ['up', 'down', 'left', 'right'] as const;

/** Builds the steps, with the run's secrets at hand to keep them out. */
class RunFlowBuilder {
  readonly steps: FlowStep[] = [];
  readonly defaults: Record<string, string> = {};
  readonly #secrets: readonly Secret[];
  readonly #sensitiveData: SensitiveData;
  /** Parameter names given to password and file fields. */
  readonly #params = new FieldParams();

  constructor(sensitiveData: SensitiveData) {
    this.#sensitiveData = sensitiveData;
    this.#secrets = secretsOf(sensitiveData);
  }

  /** The text as it is when it holds no secret, else undefined. */
  clean(text: string): string | undefined {
    return redactString(text, this.#secrets) === text ? text : undefined;
  }

  add(acted: ActedAction): void {
    const step = this.#stepOf(acted);
    if (step === undefined || this.steps.length >= FLOW_LIMITS.steps) {
      return;
    }
    const last = this.steps.at(-1);
    // A field typed into again: the later value is what the run left in it.
    if (step.action === 'fill' && last?.action === 'fill' && sameLocator(last.locator, step.locator)) {
      this.steps[this.steps.length - 1] = step;
      return;
    }
    this.steps.push(step);
  }

  #stepOf(acted: ActedAction): FlowStep | undefined {
    if (!acted.success) {
      return undefined;
    }
    const expect = this.#expectationOf(acted.outcome);
    const common = expect === undefined ? {} : { expect };
    const locator = this.#locatorOf(acted.element);
    const text = stringFieldOf(acted.params, 'text');
    switch (declarationOf(acted.name)?.flowStep) {
      case 'navigate': {
        const url = this.#url(stringFieldOf(acted.params, 'url'));
        return url === undefined ? undefined : { action: 'navigate', url, ...common };
      }
      case 'arrival': {
        // Where the history step went, as a navigation: a replay's tab has a history of its own.
        const url = this.#url(acted.outcome?.url);
        return url === undefined ? undefined : { action: 'navigate', url, ...common };
      }
      case 'click':
        return locator === undefined ? undefined : { action: 'click', locator, ...common };
      case 'fill':
        return locator === undefined || text === undefined
          ? undefined
          : { action: 'fill', locator, input: this.#valueOf(text, acted, locator), ...common };
      case 'select':
        return locator === undefined || text === undefined
          ? undefined
          : { action: 'select', locator, input: this.#valueOf(text, acted, locator), ...common };
      case 'press': {
        const keys = stringFieldOf(acted.params, 'keys');
        return keys === undefined ||
          keys === '' ||
          keys.length > FLOW_LIMITS.key ||
          this.clean(keys) === undefined ||
          PLACEHOLDER.test(keys)
          ? undefined
          : { action: 'press', key: keys, ...common };
      }
      case 'upload':
        return locator === undefined ? undefined : this.#uploadOf(acted, locator, common);
      case 'scroll_by':
        return this.#scrollOf(acted, locator, common);
      case 'switch_tab': {
        const url = this.#url(stringFieldOf(acted.result, 'url'));
        return url === undefined ? undefined : { action: 'switch_tab', url_includes: url, ...common };
      }
      case undefined:
        return undefined;
    }
  }

  /** The element's locator, or its CSS path when the locator would carry a secret; else none. */
  #locatorOf(element: ElementLocator | null): FlowLocator | undefined {
    if (element === null) {
      return undefined;
    }
    const strings = Object.values(element.locator).filter((value): value is string => typeof value === 'string');
    if (strings.every((value) => this.clean(value) !== undefined)) {
      return element.locator;
    }
    return this.clean(element.css) === undefined ? undefined : { css: element.css };
  }

  /** A typed value as the recorder keeps one: a secret by its name, a password as a parameter. */
  #valueOf(text: string, acted: ActedAction, locator: FlowLocator): FlowValue {
    const placeholder = PLACEHOLDER.exec(text)?.[1];
    const secret = placeholder ?? secretNameOf(text, acted.url, this.#sensitiveData);
    if (secret !== undefined) {
      return { secret };
    }
    if (acted.element?.password === true) {
      return { param: this.#params.nameFor(locator, 'password') };
    }
    // A secret inside a longer text becomes its placeholder there, which replay's typing fills in again.
    return { value: redactString(text, this.#secrets) };
  }

  #uploadOf(acted: ActedAction, locator: FlowLocator, common: { expect?: FlowExpectation }): FlowStep | undefined {
    const path = stringFieldOf(acted.params, 'path');
    const files = fieldOf(acted.params, 'files');
    const given = Array.isArray(files) ? stringFieldOf(files[0], 'name') : undefined;
    const file = path === undefined ? given : path.split(/[\\/]/).at(-1);
    if (file === undefined || file === '' || this.clean(file) === undefined) {
      return undefined;
    }
    const param = this.#params.nameFor(locator, 'file');
    // The path it was read from is the default; a file given as bytes needs its path at replay.
    if (path !== undefined && this.clean(path) !== undefined) {
      this.defaults[param] = path;
    }
    return { action: 'upload', locator, file, param, ...common };
  }

  /** The page's scroll (index absent or 0), or its element's container's, by pages or px as the run did. */
  #scrollOf(
    acted: ActedAction,
    locator: FlowLocator | undefined,
    common: { expect?: FlowExpectation },
  ): FlowStep | undefined {
    const index = fieldOf(acted.params, 'index');
    const inElement = typeof index === 'number' && index !== 0;
    if (inElement && locator === undefined) {
      return undefined;
    }
    const given = stringFieldOf(acted.params, 'direction');
    const direction =
      DIRECTIONS.find((candidate) => candidate === given) ?? (fieldOf(acted.params, 'down') === false ? 'up' : 'down');
    const pages = fieldOf(acted.params, 'pages');
    const amount = fieldOf(acted.params, 'amount');
    return {
      action: 'scroll_by',
      direction,
      // Within the flow schema's bounds, as the scroll action's own are.
      ...(typeof amount === 'number' && amount > 0
        ? { amount: Math.min(FLOW_LIMITS.scrollPx, Math.max(1, Math.round(amount))) }
        : typeof pages === 'number' && pages > 0
          ? { pages: Math.min(FLOW_LIMITS.scrollPages, pages) }
          : {}),
      ...(inElement && locator !== undefined ? { locator } : {}),
      ...common,
    };
  }

  /** What the outcome saw after the action: the path it arrived at, a whole text that appeared. */
  #expectationOf(outcome: ActionOutcome | undefined): FlowExpectation | undefined {
    if (outcome === undefined || outcome.verdict !== 'changed') {
      return undefined;
    }
    const path = this.#pathOf(outcome.url);
    const text = (outcome.texts_appeared ?? []).find(
      (candidate) =>
        candidate.trim() !== '' &&
        candidate.length <= FLOW_LIMITS.expectText &&
        !candidate.includes(CUT_MARK) &&
        !candidate.includes('<secret>') &&
        this.clean(candidate) !== undefined,
    );
    if (path === undefined && text === undefined) {
      return undefined;
    }
    return { ...(path === undefined ? {} : { path }), ...(text === undefined ? {} : { text: text.trim() }) };
  }

  /** The URL's path, when it holds no secret (a masked query, as a form's GET sends, does not matter). */
  #pathOf(url: string | undefined): string | undefined {
    if (url === undefined || !URL.canParse(url)) {
      return undefined;
    }
    const path = new URL(url).pathname;
    const masked = path.includes('<secret>') || path.toLowerCase().includes('%3csecret%3e');
    return path.startsWith('/') && !masked ? this.clean(path) : undefined;
  }

  /** An http(s) URL that holds no secret (a placeholder in it would not be filled in), else undefined. */
  #url(url: string | undefined): string | undefined {
    if (url === undefined || !/^https?:\/\//i.test(url) || url.includes('<secret>') || !URL.canParse(url)) {
      return undefined;
    }
    return this.clean(url);
  }

  /** The page the run's first step acted on, when it did not open one itself: where a replay starts. */
  startAt(first: ActedAction | undefined): void {
    const start = first === undefined ? undefined : this.#url(first.url);
    const opens = this.steps[0]?.action === 'navigate';
    if (start !== undefined && !opens && this.steps.length < FLOW_LIMITS.steps) {
      this.steps.unshift({ action: 'navigate', url: start });
    }
  }
}

/**
 * The flow of a run's actions, named after its task; undefined when none of them makes a step (a run
 * that only read pages, or whose every action failed).
 */
export function runFlow(task: string, acted: readonly ActedAction[], sensitiveData: SensitiveData): Flow | undefined {
  const builder = new RunFlowBuilder(sensitiveData);
  for (const action of acted) {
    builder.add(action);
  }
  if (builder.steps.length === 0) {
    return undefined;
  }
  builder.startAt(acted.find((action) => action.success));
  const name =
    redactString(task.replace(/\s+/g, ' ').trim(), secretsOf(sensitiveData)).slice(0, FLOW_LIMITS.name) || 'agent run';
  return parseFlow({
    format: FLOW_FORMAT,
    version: FLOW_VERSION,
    name,
    steps: builder.steps,
    defaults: builder.defaults,
  });
}
