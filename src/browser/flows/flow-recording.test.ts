import { describe, expect, it } from 'vitest';
import { FlowRecording, secretNameOf } from './flow-recording';

const URL_SIGNUP = 'http://127.0.0.1:8000/flows/signup.html';
const SECRETS = { '127.0.0.1': { password: 'Sw0rdf1sh' }, 'other.test': { token: 'tok-123' } };
const NAME = { role: 'textbox', name: 'Full name' };
const PASSWORD = { label: 'Password' };
const PATH = '/flows/signup.html';

describe('FlowRecording', () => {
  it('collapses keystrokes into one fill, keeps a secret as its name and a password as a parameter', () => {
    const recording = new FlowRecording('Sign up', URL_SIGNUP, 0);
    for (const value of ['A', 'Ad', 'Ada']) {
      recording.add({ kind: 'fill', locator: NAME, value, password: false, path: PATH }, URL_SIGNUP, SECRETS, 10);
    }
    recording.add(
      { kind: 'fill', locator: PASSWORD, value: 'Sw0rd', password: true, path: PATH },
      URL_SIGNUP,
      SECRETS,
      20,
    );
    recording.add(
      { kind: 'fill', locator: PASSWORD, value: 'Sw0rdf1sh', password: true, path: PATH },
      URL_SIGNUP,
      SECRETS,
      30,
    );
    recording.add(
      { kind: 'fill', locator: { label: 'Repeat' }, value: 'hunter2', password: true, path: PATH },
      URL_SIGNUP,
      SECRETS,
      40,
    );
    recording.add({ kind: 'click', locator: { role: 'button', name: 'Sign up' }, path: PATH }, URL_SIGNUP, SECRETS, 50);
    // The submit's navigation is the click's doing: no step, but the click expects where it led.
    recording.navigated('http://127.0.0.1:8000/flows/welcome.html', 60);
    const flow = recording.finish('/flows/welcome.html');
    expect(flow.steps).toEqual([
      { action: 'navigate', url: URL_SIGNUP, expect: { path: PATH } },
      { action: 'fill', locator: NAME, input: { value: 'Ada' }, expect: { path: PATH } },
      { action: 'fill', locator: PASSWORD, input: { secret: 'password' }, expect: { path: PATH } },
      { action: 'fill', locator: { label: 'Repeat' }, input: { param: 'password' }, expect: { path: PATH } },
      { action: 'click', locator: { role: 'button', name: 'Sign up' }, expect: { path: '/flows/welcome.html' } },
    ]);
    expect(JSON.stringify(flow)).not.toContain('hunter2');
    expect(JSON.stringify(flow)).not.toContain('Sw0rd');
  });

  it('keeps a navigation the person made as a step, and files, keys and choices as theirs', () => {
    const recording = new FlowRecording('Shop', 'http://shop.test/cart', 0);
    recording.add({ kind: 'press', key: 'Escape', path: '/cart' }, 'http://shop.test/cart', {}, 10);
    recording.navigated('http://shop.test/list?q=1', 5_000);
    recording.add({ kind: 'select', locator: { label: 'Category' }, value: 'Kitchen', path: '/list' }, '', {}, 5_100);
    recording.add({ kind: 'upload', locator: { label: 'Photo' }, files: ['a.png'], path: '/list' }, '', {}, 5_200);
    const flow = recording.finish('/list');
    expect(flow.steps.map((step) => step.action)).toEqual(['navigate', 'press', 'navigate', 'select', 'upload']);
    expect(flow.steps[2]).toEqual({ action: 'navigate', url: 'http://shop.test/list?q=1', expect: { path: '/list' } });
    expect(flow.steps[4]).toMatchObject({ file: 'a.png', param: 'file', expect: { path: '/list' } });
  });

  it("finds a secret by value, the page's host's first, and never an empty one", () => {
    expect(secretNameOf('tok-123', URL_SIGNUP, SECRETS)).toBe('token');
    expect(secretNameOf('Sw0rdf1sh', URL_SIGNUP, SECRETS)).toBe('password');
    expect(secretNameOf('', URL_SIGNUP, { x: { empty: '' } })).toBeUndefined();
  });
});
