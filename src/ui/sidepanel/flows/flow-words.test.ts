import { describe, expect, it } from 'vitest';
import type { FlowStep } from '../../../protocol/flow';
import { expectationWords, replayWords, stepLine } from './flow-words';

describe('a flow in words', () => {
  it('says each step as a person reads it, a secret by its name only', () => {
    const steps: FlowStep[] = [
      { action: 'navigate', url: 'https://shop.example/signup' },
      { action: 'click', locator: { role: 'button', name: 'Sign up' } },
      { action: 'fill', locator: { role: 'textbox', name: 'Email' }, input: { param: 'email' } },
      { action: 'fill', locator: { label: 'Password' }, input: { secret: 'password' } },
      { action: 'fill', locator: { test_id: 'note' }, input: { value: 'x'.repeat(80) } },
      { action: 'select', locator: { role: 'combobox', name: 'Plan' }, input: { value: 'Pro' } },
      { action: 'press', key: 'Enter' },
      { action: 'upload', locator: { css: '#photo' }, file: 'me.png', param: 'file' },
      { action: 'switch_tab', url_includes: '/checkout' },
      { action: 'click', title: 'Send the form', locator: { text: 'Send' } },
      { action: 'scroll_by', direction: 'down' },
      { action: 'scroll_by', direction: 'up', amount: 300, locator: { role: 'list', name: 'Results' } },
    ];
    expect(steps.map(stepLine)).toEqual([
      '1. Open https://shop.example/signup',
      '2. Click button "Sign up"',
      '3. Fill textbox "Email" with {email}',
      '4. Fill the field labelled "Password" with the secret password',
      `5. Fill test id "note" with "${'x'.repeat(59)}…"`,
      '6. Choose "Pro" in combobox "Plan"',
      '7. Press Enter',
      `8. Upload "me.png" into the element at #photo (the file's path from {file})`,
      '9. Switch to the tab at "/checkout"',
      '10. Send the form',
      '11. Scroll down a page',
      '12. Scroll up 300 px in list "Results"',
    ]);
    expect(expectationWords({ path: '/welcome', text: 'Welcome' })).toBe(
      'then the address has /welcome and the page shows "Welcome"',
    );
    expect(expectationWords(undefined)).toBeUndefined();
  });

  it('says what a replay did: passed, or the step it stopped at and why', () => {
    expect(
      replayWords({ flow: 'f', steps: 3, completed: 3, stopped_at: null, reason: null, screenshot: null }),
    ).toEqual({ passed: true, text: 'Passed: all 3 steps ran and held.' });
    expect(
      replayWords({
        flow: 'f',
        steps: 4,
        completed: 3,
        stopped_at: 4,
        reason: 'step 4 (click button "Place order"): no element on the page is button "Place order"',
        screenshot: 'Downloads/tabpilot/replay-step-4.png',
      }),
    ).toEqual({
      passed: false,
      text: 'Failed at step 4 of 4 (3 passed): step 4 (click button "Place order"): no element on the page is button "Place order". Picture: Downloads/tabpilot/replay-step-4.png',
    });
    expect(replayWords({})).toMatchObject({ passed: false });
  });
});
