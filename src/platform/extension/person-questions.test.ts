import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PersonQuestion } from '../../protocol/person-questions';
import { PersonQuestions } from './person-questions';

const ASKED = { client: 'mcp:alpha', action: 'save_storage_state', what: 'save 3 cookies of 2 sites (a.com, b.com)' };

function setup(openPanels: number) {
  const panels = { size: openPanels, shown: [] as PersonQuestion[][] };
  const notes: string[] = [];
  const questions = new PersonQuestions({
    panels: {
      get size() {
        return panels.size;
      },
      show: (pending) => panels.shown.push(pending),
    },
    note: (_level, text) => notes.push(text),
    waitMs: 10_000,
  });
  return { panels, notes, questions };
}

describe('PersonQuestions', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('shows who asks and what, and resolves once the person allows it', async () => {
    const { panels, notes, questions } = setup(1);
    const asked = questions.ask(ASKED);
    const [shown] = panels.shown.at(-1) ?? [];
    expect(shown).toMatchObject({ client: 'mcp:alpha', action: 'save_storage_state', what: ASKED.what });
    questions.answer(shown!.id, true);
    await expect(asked).resolves.toBeUndefined();
    expect(panels.shown.at(-1)).toEqual([]);
    expect(notes).toEqual([`mcp:alpha asks to ${ASKED.what}`, `You allowed mcp:alpha once to ${ASKED.what}`]);
  });

  it('refused: FORBIDDEN saying the person refused, and the question is gone', async () => {
    const { panels, questions } = setup(1);
    const asked = questions.ask(ASKED);
    questions.answer(panels.shown.at(-1)![0]!.id, false);
    await expect(asked).rejects.toMatchObject({ code: 'FORBIDDEN', message: expect.stringContaining('refused it') });
    expect(questions.pending()).toEqual([]);
  });

  it('no panel open: FORBIDDEN at once, nothing shown', async () => {
    const { panels, questions } = setup(0);
    await expect(questions.ask(ASKED)).rejects.toMatchObject({
      code: 'FORBIDDEN',
      message: expect.stringContaining('no tabpilot side panel is open'),
    });
    expect(panels.shown).toEqual([]);
  });

  it('every panel closed while it waits: FORBIDDEN naming that', async () => {
    const { panels, questions } = setup(1);
    const asked = questions.ask(ASKED);
    const outcome = expect(asked).rejects.toMatchObject({ message: expect.stringContaining('panel was closed') });
    panels.size = 0;
    await vi.advanceTimersByTimeAsync(500);
    await outcome;
  });

  it('unanswered past the wait: FORBIDDEN naming the wait; a late answer changes nothing', async () => {
    const { panels, questions } = setup(1);
    const asked = questions.ask(ASKED);
    const id = panels.shown.at(-1)![0]!.id;
    const outcome = expect(asked).rejects.toMatchObject({ message: expect.stringContaining('within 10 s') });
    await vi.advanceTimersByTimeAsync(10_000);
    await outcome;
    questions.answer(id, true);
    expect(questions.pending()).toEqual([]);
  });
});
