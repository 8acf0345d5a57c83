import { describe, expect, it } from 'vitest';
import { FakeBrowser } from '../../../test/fakes/fake-browser';
import { startedFakeSession } from '../../../test/fakes/fake-session';
import { defaultBrowserConfig } from '../config';
import { ScrollEvent } from '../../protocol/events/actions.events';
import { DialogOpenedEvent, HandleDialogEvent } from '../../protocol/events/dialogs.events';
import { popupsWatchdog } from './popups.watchdog';

const PROMPT = {
  type: 'prompt',
  message: 'New name?',
  defaultPrompt: 'draft',
  url: 'https://example.test/',
  frameId: 'F1',
};

async function dialogSetup(auto_answer: boolean) {
  const browser = new FakeBrowser();
  const page = browser.addPage('https://example.test/');
  const { session } = await startedFakeSession({
    browser,
    watchdogs: [popupsWatchdog],
    config: { dialogs: { ...defaultBrowserConfig().dialogs, auto_answer } },
  });
  const answers: string[] = [];
  session.bus.observe(({ phase, record }) => {
    if (phase === 'emitted' && record.event.type === DialogOpenedEvent.type) {
      const payload = record.event.payload as { dialog_type: string; answer: string };
      answers.push(`${payload.dialog_type}:${payload.answer}`);
    }
  });
  // A stand-in for the action watchdog: the gate sits in front of whatever handles it.
  session.bus.on(ScrollEvent, () => ({ scrolled_x: 0, scrolled_y: 0 }) as never, { name: 'test.on_ScrollEvent' });
  return { browser, page, session, answers, cdp: session.targets.requireSession(page.targetId) };
}

describe('popups watchdog', () => {
  it('holds a dialog when auto_answer is off: page commands fail at once naming it, and handle_dialog answers it', async () => {
    const { browser, page, session, answers, cdp } = await dialogSetup(false);
    browser.silent.add('Runtime.evaluate');
    const pending = cdp.send('Runtime.evaluate', { expression: 'document.title' });
    browser.emitOn(page, 'Page.javascriptDialogOpening', PROMPT);
    await expect(pending).rejects.toMatchObject({ code: 'ELEMENT_OCCLUDED', details: { reason: 'dialog_open' } });
    await expect(cdp.send('DOM.getDocument', {})).rejects.toThrow('prompt dialog ("New name?")');
    await expect(session.bus.emit(ScrollEvent, { target_id: page.targetId, direction: 'down' })).rejects.toMatchObject({
      code: 'ELEMENT_OCCLUDED',
    });
    // An open dialog is no fault of the tab: its status stays ok, the condition carries the dialog.
    expect(session.conditions.status(page.targetId).status).toBe('ok');
    expect(session.conditions.get(page.targetId, 'dialog')?.dialog).toMatchObject({
      dialog_type: 'prompt',
      default_prompt: 'draft',
    });

    const result = await session.bus.emit(HandleDialogEvent, { target_id: page.targetId, prompt_text: 'Final' });
    expect(result).toEqual({ target_id: page.targetId, dialog_type: 'prompt', message: 'New name?', accepted: true });
    const answer = browser.sent.find((message) => message.method === 'Page.handleJavaScriptDialog');
    expect(answer?.params).toEqual({ accept: true, promptText: 'Final' });
    expect(session.conditions.get(page.targetId, 'dialog')).toBeUndefined();
    browser.silent.delete('Runtime.evaluate');
    await expect(cdp.send('Runtime.evaluate', { expression: '1' })).resolves.toBeDefined();
    // The browser's own closed event after the answer finds nothing held: announced once.
    browser.emitOn(page, 'Page.javascriptDialogClosed', { result: true, userInput: 'Final', frameId: 'F1' });
    await session.bus.waitUntilIdle();
    expect(answers).toEqual(['prompt:accepted']);
  });

  it('answers handle_dialog with ELEMENT_NOT_FOUND when no dialog is open, saying why when dialogs are auto-answered', async () => {
    const held = await dialogSetup(false);
    await expect(
      held.session.bus.emit(HandleDialogEvent, { target_id: held.page.targetId, accept: true }),
    ).rejects.toMatchObject({
      code: 'ELEMENT_NOT_FOUND',
      message: expect.stringMatching(/^No JavaScript dialog is open/),
    });
    const auto = await dialogSetup(true);
    await expect(
      auto.session.bus.emit(HandleDialogEvent, { target_id: auto.page.targetId, accept: true }),
    ).rejects.toThrow('dialogs.auto_answer is on');
  });

  it('lets a person answer a held dialog in the browser, and announces how', async () => {
    const { browser, page, session, answers, cdp } = await dialogSetup(false);
    browser.emitOn(page, 'Page.javascriptDialogOpening', { ...PROMPT, type: 'confirm', message: 'Delete?' });
    await expect(cdp.send('DOM.getDocument', {})).rejects.toMatchObject({ code: 'ELEMENT_OCCLUDED' });
    browser.emitOn(page, 'Page.javascriptDialogClosed', { result: false, userInput: '', frameId: 'F1' });
    await session.bus.waitUntilIdle();
    expect(session.conditions.get(page.targetId, 'dialog')).toBeUndefined();
    await expect(cdp.send('DOM.getDocument', {})).resolves.toBeDefined();
    expect(answers).toEqual(['confirm:dismissed']);
  });

  it('answers beforeunload at once even when auto_answer is off: the navigation that asked waits for it', async () => {
    const { browser, page, session, answers } = await dialogSetup(false);
    browser.emitOn(page, 'Page.javascriptDialogOpening', { ...PROMPT, type: 'beforeunload', message: '' });
    await expect.poll(() => answers).toEqual(['beforeunload:accepted']);
    expect(session.conditions.get(page.targetId, 'dialog')).toBeUndefined();
  });

  it('answers at once when auto_answer is on, and holds nothing', async () => {
    const { browser, page, session, answers } = await dialogSetup(true);
    browser.emitOn(page, 'Page.javascriptDialogOpening', { ...PROMPT, type: 'confirm', message: 'Delete?' });
    await session.bus.waitUntilIdle();
    await expect.poll(() => answers).toEqual(['confirm:dismissed']);
    expect(session.conditions.get(page.targetId, 'dialog')).toBeUndefined();
    const answer = browser.sent.find((message) => message.method === 'Page.handleJavaScriptDialog');
    expect(answer?.params).toEqual({ accept: false });
  });
});
