import {
  FieldParams,
  FLOW_FORMAT,
  FLOW_LIMITS,
  FLOW_VERSION,
  parseFlow,
  sameLocator,
  type Flow,
  type FlowStep,
} from '../../protocol/flow';
import type { RecordedInput } from '../../dom/payload';
import { matchUrlWithDomainPattern, type SensitiveData } from '../secrets';

/** A navigation this soon after a step is that step's doing (a link, a submit): no step of its own. */
const CAUSED_NAVIGATION_MS = 2_000;

/** The sensitive_data name whose value this is, the page's host's first, else undefined. */
export function secretNameOf(value: string, url: string, sensitiveData: SensitiveData): string | undefined {
  if (value === '') {
    return undefined;
  }
  const entries = Object.entries(sensitiveData);
  const ordered = [
    ...entries.filter(([pattern]) => matchUrlWithDomainPattern(url, pattern)),
    ...entries.filter(([pattern]) => !matchUrlWithDomainPattern(url, pattern)),
  ];
  for (const [, secrets] of ordered) {
    const found = Object.entries(secrets).find(([, secret]) => secret === value);
    if (found !== undefined) {
      return found[0];
    }
  }
  return undefined;
}

/**
 * A flow being recorded from a person's input (src/dom/in-page/recorder.ts tells it): one step per
 * input, keystrokes into one field collapsed into one `fill` with its final value, a typed secret as its
 * placeholder's name and a password as a parameter (its value is never kept), a navigation the person
 * made (not a click's) as a `navigate` step, and each step's expectation the path the tab showed after
 * it. Pure: the watchdog feeds it and writes what `finish` answers.
 */
export class FlowRecording {
  readonly #name: string;
  readonly #steps: FlowStep[] = [];
  /** Parameter names given to password and file fields. */
  readonly #params = new FieldParams();
  #lastStepAt = -Infinity;
  #dropped = 0;

  constructor(name: string, url: string, now: number) {
    this.#name = name;
    this.#push({ action: 'navigate', url }, now);
  }

  get stepCount(): number {
    return this.#steps.length;
  }

  get dropped(): number {
    return this.#dropped;
  }

  /** One input of the person's, on a page at `url` (for its secrets), at time `now` (ms). */
  add(input: RecordedInput, url: string, sensitiveData: SensitiveData, now: number): void {
    this.#settle(input.path);
    switch (input.kind) {
      case 'click':
        this.#push({ action: 'click', locator: input.locator }, now);
        return;
      case 'press':
        this.#push({ action: 'press', key: input.key }, now);
        return;
      case 'select':
        this.#push({ action: 'select', locator: input.locator, input: { value: input.value } }, now);
        return;
      case 'upload':
        this.#push(
          {
            action: 'upload',
            locator: input.locator,
            file: input.files[0] ?? '',
            param: this.#params.nameFor(input.locator, 'file'),
          },
          now,
        );
        return;
      case 'fill': {
        const secret = secretNameOf(input.value, url, sensitiveData);
        if (secret !== undefined) {
          // A password typed so far took a parameter's name; its whole value is a secret after all.
          this.#params.forget(input.locator);
        }
        const value =
          secret !== undefined
            ? { secret }
            : input.password
              ? { param: this.#params.nameFor(input.locator, 'password') }
              : { value: input.value };
        const last = this.#steps.at(-1);
        if (last?.action === 'fill' && sameLocator(last.locator, input.locator)) {
          last.input = value;
          this.#lastStepAt = now;
          return;
        }
        this.#push({ action: 'fill', locator: input.locator, input: value }, now);
        return;
      }
    }
  }

  /** The tab's main frame showed a new document at `url`: a step of its own unless a step just caused it. */
  navigated(url: string, now: number): void {
    if (now - this.#lastStepAt < CAUSED_NAVIGATION_MS) {
      return;
    }
    this.#settle(new URL(url).pathname);
    this.#push({ action: 'navigate', url }, now);
  }

  /** The flow, checked by its schema, with the last step's expectation the path the tab shows now. */
  finish(path: string): Flow {
    this.#settle(path);
    return parseFlow({ format: FLOW_FORMAT, version: FLOW_VERSION, name: this.#name, steps: this.#steps });
  }

  /** The latest step's expectation: the path the tab showed once it was done (before the next input). */
  #settle(path: string): void {
    const last = this.#steps.at(-1);
    if (last !== undefined && path.startsWith('/')) {
      last.expect = { path };
    }
  }

  #push(step: FlowStep, now: number): void {
    // Input past the schema's limit is not kept (the person is told by the count in the answer).
    if (this.#steps.length >= FLOW_LIMITS.steps) {
      this.#dropped++;
      return;
    }
    this.#steps.push(step);
    this.#lastStepAt = now;
  }
}
