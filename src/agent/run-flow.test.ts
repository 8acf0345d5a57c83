import { describe, expect, it } from 'vitest';
import type { ElementLocator } from '../dom/payload';
import type { ActionOutcome } from '../protocol/outcome';
import { runFlow, type ActedAction } from './run-flow';

const FORM = 'http://127.0.0.1:8000/agent/form';
const SECRETS = { '127.0.0.1': { password: 'Sw0rdf1sh' } };

function element(locator: ElementLocator['locator'], extra: Partial<ElementLocator> = {}): ElementLocator {
  return { locator, css: '#form > input:nth-of-type(2)', password: false, ...extra };
}

function changed(more: Partial<ActionOutcome> = {}): ActionOutcome {
  return { verdict: 'changed', settled: true, waited_ms: 120, ...more };
}

function acted(name: string, params: unknown, more: Partial<ActedAction> = {}): ActedAction {
  return { name, params, success: true, outcome: undefined, result: null, element: null, url: FORM, ...more };
}

const NAME = { role: 'textbox', name: 'Name' };
const PASSWORD = { label: 'Password' };
const CREATE = { role: 'button', name: 'Create account' };

describe('runFlow', () => {
  it('makes each acting action a step: its locator, its typed value, its expectation from the outcome', () => {
    const flow = runFlow(
      'Sign up as Ada',
      [
        acted('navigate', { url: FORM }, { url: 'about:blank', outcome: changed({ url: FORM, new_document: true }) }),
        acted('input', { index: 3, text: 'Ad' }, { element: element(NAME) }),
        acted('input', { index: 3, text: 'Ada' }, { element: element(NAME) }),
        acted(
          'input',
          { index: 4, text: '<secret>password</secret>' },
          { element: element(PASSWORD, { password: true }) },
        ),
        acted('select_dropdown', { index: 5, text: 'Pro' }, { element: element({ role: 'combobox', name: 'Plan' }) }),
        acted('send_keys', { keys: 'Tab Tab' }),
        acted('upload_file', { index: 6, path: '/srv/uploads/cv.pdf' }, { element: element({ label: 'CV' }) }),
        acted(
          'click',
          { index: 7 },
          {
            element: element(CREATE),
            outcome: changed({ url: 'http://127.0.0.1:8000/agent/thanks?name=Ada', texts_appeared: ['Thanks, Ada!'] }),
          },
        ),
        acted('go_back', {}, { outcome: changed({ url: FORM }) }),
        acted('switch', { tab_id: 'B2' }, { result: { tab_id: 'B2', url: 'http://127.0.0.1:8000/agent/start' } }),
        acted('scroll', { down: false, pages: 2 }),
        acted('scroll', { direction: 'right', amount: 240.4, index: 8 }, { element: element({ test_id: 'carousel' }) }),
        acted('scroll', { index: 9 }),
      ],
      SECRETS,
    );
    expect(flow).toEqual({
      format: 'tabpilot-flow',
      version: 1,
      name: 'Sign up as Ada',
      steps: [
        { action: 'navigate', url: FORM, expect: { path: '/agent/form' } },
        // Typed twice into one field: the later value is the one kept.
        { action: 'fill', locator: NAME, input: { value: 'Ada' } },
        { action: 'fill', locator: PASSWORD, input: { secret: 'password' } },
        { action: 'select', locator: { role: 'combobox', name: 'Plan' }, input: { value: 'Pro' } },
        { action: 'press', key: 'Tab Tab' },
        { action: 'upload', locator: { label: 'CV' }, file: 'cv.pdf', param: 'file' },
        { action: 'click', locator: CREATE, expect: { path: '/agent/thanks', text: 'Thanks, Ada!' } },
        { action: 'navigate', url: FORM, expect: { path: '/agent/form' } },
        { action: 'switch_tab', url_includes: 'http://127.0.0.1:8000/agent/start' },
        { action: 'scroll_by', direction: 'up', pages: 2 },
        { action: 'scroll_by', direction: 'right', amount: 240, locator: { test_id: 'carousel' } },
      ],
      defaults: { file: '/srv/uploads/cv.pdf' },
    });
  });

  it('leaves out failed actions, reads, and actions it cannot name an element for', () => {
    const flow = runFlow(
      'Look around',
      [
        acted('extract', { query: 'prices' }),
        acted('click', { index: 2 }, { success: false, element: element(CREATE) }),
        acted('click', { coordinate_x: 10, coordinate_y: 20 }),
        acted('input', { text: 'focused field' }),
        acted('click', { index: 9 }, { element: element({ text: 'More' }) }),
      ],
      SECRETS,
    );
    // The run did not open its page itself: the flow starts by opening the page it started on.
    expect(flow?.steps).toEqual([
      { action: 'navigate', url: FORM },
      { action: 'click', locator: { text: 'More' } },
    ]);
    expect(runFlow('Only reads', [acted('extract', {}), acted('click', { index: 1 }, { success: false })], {})).toBe(
      undefined,
    );
  });

  it('never keeps a secret: typed values, password fields, locators, texts and URLs that hold one', () => {
    const flow = runFlow(
      'Log in with Sw0rdf1sh',
      [
        acted('input', { index: 1, text: 'Sw0rdf1sh' }, { element: element({ label: 'Secret word' }) }),
        acted('input', { index: 2, text: 'hunter2' }, { element: element(PASSWORD, { password: true }) }),
        acted('input', { index: 3, text: 'note: Sw0rdf1sh here' }, { element: element({ label: 'Note' }) }),
        // A field the page names by a secret it shows: found by its CSS path instead.
        acted('click', { index: 4 }, { element: element({ role: 'button', name: 'Send Sw0rdf1sh' }) }),
        acted(
          'click',
          { index: 5 },
          {
            element: element(CREATE),
            // As the agent's connection masks it: the form sent the secret in its query.
            outcome: changed({
              url: 'http://127.0.0.1:8000/saved?word=<secret>password</secret>',
              texts_appeared: ['Your word is Sw0rdf1sh', 'Saved'],
            }),
          },
        ),
        acted('navigate', { url: 'http://127.0.0.1:8000/login?pw=Sw0rdf1sh' }),
        acted('send_keys', { keys: 'Sw0rdf1sh' }),
      ],
      SECRETS,
    );
    expect(JSON.stringify(flow)).not.toContain('Sw0rdf1sh');
    expect(JSON.stringify(flow)).not.toContain('hunter2');
    expect(flow?.name).toBe('Log in with <secret>password</secret>');
    expect(flow?.steps).toEqual([
      { action: 'navigate', url: FORM },
      { action: 'fill', locator: { label: 'Secret word' }, input: { secret: 'password' } },
      { action: 'fill', locator: PASSWORD, input: { param: 'password' } },
      { action: 'fill', locator: { label: 'Note' }, input: { value: 'note: <secret>password</secret> here' } },
      { action: 'click', locator: { css: '#form > input:nth-of-type(2)' } },
      { action: 'click', locator: CREATE, expect: { path: '/saved', text: 'Saved' } },
    ]);
  });

  it('keeps no expectation of an outcome that saw no change, or only a text cut short', () => {
    const flow = runFlow(
      'Click twice',
      [
        acted(
          'click',
          { index: 1 },
          { element: element(CREATE), outcome: { verdict: 'no_visible_change', settled: true, waited_ms: 50 } },
        ),
        acted(
          'click',
          { index: 1 },
          { element: element(CREATE), outcome: changed({ texts_appeared: ['A long notice…'] }) },
        ),
      ],
      {},
    );
    expect(flow?.steps.slice(1)).toEqual([
      { action: 'click', locator: CREATE },
      { action: 'click', locator: CREATE },
    ]);
  });

  it("keeps a scroll's distance and a key press within the flow's bounds, so the flow is always a valid one", () => {
    const flow = runFlow(
      'Scroll far',
      [
        acted('scroll', { direction: 'down', pages: 500 }),
        acted('scroll', { direction: 'down', amount: 0.3 }),
        acted('send_keys', { keys: '' }),
        acted('send_keys', { keys: 'x'.repeat(61) }),
      ],
      {},
    );
    expect(flow?.steps.slice(1)).toEqual([
      { action: 'scroll_by', direction: 'down', pages: 100 },
      { action: 'scroll_by', direction: 'down', amount: 1 },
    ]);
  });
});
