import type { PersonQuestion } from '../../protocol/person-questions';
import { TabpilotError } from '../../shared/errors';
import { shortId } from '../../shared/ids';
import type { PersonAsker, PersonQuestionText } from '../../tools/person-powers';

/** Long enough to read the question and decide; short enough that a program is not left hanging. */
export const QUESTION_WAIT_MS = 60_000;
/** How often a waiting question looks whether any panel is still open to answer it. */
const PANEL_CHECK_MS = 250;

/** Where questions are shown: every open panel. */
export interface QuestionPanels {
  /** Open panels (0: nobody to ask). */
  readonly size: number;
  /** Tells every open panel which questions wait now. */
  show(questions: PersonQuestion[]): void;
}

export interface PersonQuestionsOptions {
  panels: QuestionPanels;
  /** What is asked and answered goes in the timeline, naming the client. */
  note(level: 'info' | 'warn', text: string, source: string | null): void;
  waitMs?: number;
  now?: () => number;
}

type Outcome = 'allowed' | 'refused' | 'closed' | 'timeout';

interface Waiting {
  readonly question: PersonQuestion;
  settle(outcome: Outcome): void;
}

/**
 * The one way the worker asks the person something on a program's behalf: a question to the side panel
 * naming who asks and exactly what, answered Allow once or Refuse. Refused, unanswered within the wait,
 * with every panel closed while it waits, or with no panel open to ask at all: FORBIDDEN, saying which.
 * Each question is asked anew: an answer allows that one request only.
 */
export class PersonQuestions implements PersonAsker {
  readonly #options: PersonQuestionsOptions;
  readonly #waiting = new Map<string, Waiting>();

  constructor(options: PersonQuestionsOptions) {
    this.#options = options;
  }

  pending(): PersonQuestion[] {
    return [...this.#waiting.values()].map((waiting) => waiting.question);
  }

  async ask(text: PersonQuestionText): Promise<void> {
    const { panels } = this.#options;
    const note = (level: 'info' | 'warn', line: string, from: string): void => this.#options.note(level, line, from);
    const source = `native:${text.client}`;
    if (panels.size === 0) {
      note('warn', `${text.client} asked to ${text.what}; refused: no tabpilot panel was open to ask you`, source);
      throw refusal(text, 'no tabpilot side panel is open for the person to answer; they may open it and you retry');
    }
    const now = this.#options.now ?? Date.now;
    const waitMs = this.#options.waitMs ?? QUESTION_WAIT_MS;
    const question: PersonQuestion = {
      id: shortId(10),
      client: text.client,
      action: text.action,
      what: text.what,
      asked_at: now(),
      expires_at: now() + waitMs,
    };
    note('info', `${text.client} asks to ${text.what}`, source);
    const outcome = await new Promise<Outcome>((resolve) => {
      const timeout = setTimeout(() => settle('timeout'), waitMs);
      const panelCheck = setInterval(() => {
        if (panels.size === 0) {
          settle('closed');
        }
      }, PANEL_CHECK_MS);
      const settle = (result: Outcome): void => {
        clearTimeout(timeout);
        clearInterval(panelCheck);
        this.#waiting.delete(question.id);
        this.#show();
        resolve(result);
      };
      this.#waiting.set(question.id, { question, settle });
      this.#show();
    });
    if (outcome === 'allowed') {
      note('info', `You allowed ${text.client} once to ${text.what}`, source);
      return;
    }
    const why = REASONS[outcome](waitMs);
    note('warn', `${text.client} was refused to ${text.what}: ${why}`, source);
    throw refusal(text, why);
  }

  /** The person's answer; an unknown id (answered already, or expired) changes nothing. */
  answer(questionId: string, allow: boolean): void {
    this.#waiting.get(questionId)?.settle(allow ? 'allowed' : 'refused');
  }

  #show(): void {
    this.#options.panels.show(this.pending());
  }
}

const REASONS: Record<Exclude<Outcome, 'allowed'>, (waitMs: number) => string> = {
  refused: () => 'the person refused it in the tabpilot panel',
  closed: () => 'the tabpilot panel was closed before the person answered',
  timeout: (waitMs) => `the person did not answer in the tabpilot panel within ${Math.round(waitMs / 1000)} s`,
};

function refusal(text: PersonQuestionText, why: string): TabpilotError {
  return new TabpilotError(
    'FORBIDDEN',
    `${text.action}: only the person may allow ${text.client} to ${text.what}, and ${why}; nothing was done`,
    { details: { action: text.action, client: text.client } },
  );
}
