import { describe, expect, it } from 'vitest';
import { defineWatchdog } from './define-watchdog';
import { BrowserErrorEvent } from '../protocol/events/lifecycle.events';
import { TabClosedEvent, TabCreatedEvent } from '../protocol/events/tabs.events';

/**
 * What defineWatchdog promises at compile time: a handler for every listened event, and `emit` only of
 * declared events (a handler for an event it does not listen to is refused when it is attached). `npm run typecheck` compiles this file, and
 * each `@ts-expect-error` fails the type check if the line under it ever compiles.
 */
describe('defineWatchdog types', () => {
  it('compiles a watchdog that handles what it listens to and emits what it declares', () => {
    const ok = defineWatchdog({
      name: 'ok',
      listensTo: [TabClosedEvent],
      emits: [BrowserErrorEvent],
      setup: (ctx) => ({
        TabClosedEvent: () => {
          ctx.emit(BrowserErrorEvent, { error_type: 'x', message: 'y' });
        },
      }),
    });
    expect(ok.name).toBe('ok');
  });

  it('refuses a missing handler and an undeclared emit', () => {
    const missing = defineWatchdog({
      name: 'missing',
      listensTo: [TabClosedEvent, TabCreatedEvent],
      emits: [],
      // @ts-expect-error TabCreatedEvent has no handler
      setup: () => ({ TabClosedEvent: () => undefined }),
    });
    const undeclared = defineWatchdog({
      name: 'undeclared',
      listensTo: [TabClosedEvent],
      emits: [],
      setup: (ctx) => ({
        TabClosedEvent: () => {
          // @ts-expect-error BrowserErrorEvent is not in emits
          ctx.emit(BrowserErrorEvent, { error_type: 'x', message: 'y' });
        },
      }),
    });
    expect([missing.name, undeclared.name]).toEqual(['missing', 'undeclared']);
  });
});
