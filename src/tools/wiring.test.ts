import { describe, expect, it } from 'vitest';
import { startedFakeSession } from '../../test/fakes/fake-session';
import type { BrowserLauncher } from '../browser/launcher';
import { watchdogsFor, type Platform } from '../browser/watchdogs/index';
import { gateClassOf } from '../browser/guards/tab-gate';
import { ACTIONS } from '../protocol/actions';

const launcher: BrowserLauncher = {
  launch: () => Promise.reject(new Error('the wiring test launches nothing')),
};

/** Watchdogs that also listen to the stop's event, to clean up; the session's own handler answers it. */
const STOP_OBSERVERS = [
  'local-browser.on_BrowserStopEvent',
  'about-blank.on_BrowserStopEvent',
  'downloads.on_BrowserStopEvent',
  'har-recording.on_BrowserStopEvent',
  'recording.on_BrowserStopEvent',
  // Takes the in-page indicator down before the tabs watchdog lets the tab go; answers nothing.
  'control-indicator.on_ReleaseTabEvent',
  // Clears what emulate set in the tab before the tabs watchdog lets it go; answers nothing.
  'emulation.on_ReleaseTabEvent',
  // Clears what network_conditions set in the tab before the tabs watchdog lets it go; answers nothing.
  'network-conditions.on_ReleaseTabEvent',
  // Ends (unsaved) a flow recording of the tab before the tabs watchdog lets it go; answers nothing.
  'flow-recorder.on_ReleaseTabEvent',
  // Clears the routes the client set on the tab before the tabs watchdog lets it go; answers nothing.
  'route.on_ReleaseTabEvent',
  // Ends and throws away a trace performance_start began in the tab before the tabs watchdog lets it go.
  'performance.on_ReleaseTabEvent',
];

async function sessionFor(platform: Platform) {
  // Every watchdog the config can turn on is on (recording is off by default).
  const { session } = await startedFakeSession({
    watchdogs: watchdogsFor(platform, { launcher }),
    config: { record_video_dir: 'videos' },
  });
  return session;
}

describe.each<Platform>(['node', 'extension'])('the %s wiring', (platform) => {
  it('gives every event a listed watchdog listens to a handler of that watchdog', async () => {
    const session = await sessionFor(platform);
    for (const watchdog of watchdogsFor(platform, { launcher })) {
      for (const event of watchdog.listensTo as ReadonlyArray<{ type: string }>) {
        expect(session.bus.handlerNames(event as never)).toContain(`${watchdog.name}.on_${event.type}`);
      }
    }
  });

  it('handles the event of every action in exactly one place', async () => {
    const session = await sessionFor(platform);
    for (const action of ACTIONS) {
      const handlers = session.bus.handlerNames(action.event).filter((name) => !STOP_OBSERVERS.includes(name));
      expect({ action: action.name, handlers: handlers.length }).toEqual({ action: action.name, handlers: 1 });
    }
  });
});

/**
 * Actions that touch no page of a tab, or that must reach a tab whatever its condition (to leave it).
 * The storage-state actions act on the browser's cookies and on every controlled tab, not on one; they
 * leave crashed and stuck pages alone themselves (storage-state.watchdog.test.ts).
 */
const UNGATED = [
  'wait',
  'tabs',
  'switch',
  'close',
  'attach',
  'release',
  'stop',
  'save_storage_state',
  'load_storage_state',
  // The network of every controlled tab, not one tab's.
  'start_har',
  'stop_har',
  // The way out of a dialog that blocks the page: refusing it there would leave the tab stuck.
  'handle_dialog',
  // Ends the one recording, in whatever state its tab is: saving what was recorded needs no page.
  'record_stop',
];

describe('the action list', () => {
  it('puts every action that touches a page behind the tab gate, and says which do not', () => {
    const ungated = ACTIONS.filter((action) => gateClassOf(action.event.type) === undefined).map(
      (action) => action.name,
    );
    expect(ungated.sort()).toEqual([...UNGATED].sort());
  });

  it('names each action and each action event once', () => {
    const names = ACTIONS.map((action) => action.name);
    const events = ACTIONS.map((action) => action.event.type);
    expect(new Set(names).size).toBe(names.length);
    expect(new Set(events).size).toBe(events.length);
  });
});
