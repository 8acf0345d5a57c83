import type { Protocol } from 'devtools-protocol';
import { describe, expect, it } from 'vitest';
import { ConsoleLog, MESSAGES_PER_TAB, type ConsoleFilter } from './console-log';

const TAB = 'T1';
const ALL: ConsoleFilter = { levels: [], textContains: undefined, sinceMark: undefined, max: 500 };

function call(
  type: Protocol.Runtime.ConsoleAPICalledEvent['type'],
  text: string,
  line = 0,
): Protocol.Runtime.ConsoleAPICalledEvent {
  return {
    type,
    args: [{ type: 'string', value: text }],
    executionContextId: 1,
    timestamp: 0,
    stackTrace: {
      callFrames: [
        { functionName: 'report', scriptId: '1', url: 'http://site/app.js', lineNumber: line, columnNumber: 2 },
        { functionName: '', scriptId: '1', url: 'http://site/app.js', lineNumber: 40, columnNumber: 0 },
      ],
    },
  };
}

function thrown(exceptionId: number, text: string, description: string): Protocol.Runtime.ExceptionThrownEvent {
  return {
    timestamp: 0,
    exceptionDetails: {
      exceptionId,
      text,
      lineNumber: 7,
      columnNumber: 3,
      url: 'http://site/app.js',
      exception: { type: 'object', subtype: 'error', className: 'Error', description },
    },
  };
}

const texts = (log: ConsoleLog, filter: Partial<ConsoleFilter> = {}): string[] =>
  log.list(TAB, { ...ALL, ...filter }).messages.map((message) => message.text);

describe('ConsoleLog', () => {
  it('keeps each console call with its level, text and 1-based place; a stack for errors only', () => {
    const log = new ConsoleLog();
    log.consoleCalled(TAB, call('log', 'plain', 4));
    log.consoleCalled(TAB, call('warning', 'careful'));
    log.consoleCalled(TAB, call('error', 'broken'));
    log.consoleCalled(TAB, call('assert', 'x > 0'));
    log.consoleCalled(TAB, call('table', 'rows'));
    log.consoleCalled(TAB, call('endGroup', ''));
    const { messages } = log.list(TAB, ALL);
    expect(messages.map((message) => [message.level, message.text])).toEqual([
      ['log', 'plain'],
      ['warning', 'careful'],
      ['error', 'broken'],
      ['error', 'Assertion failed: x > 0'],
      ['log', 'rows'],
    ]);
    expect(messages[0]).toEqual({
      level: 'log',
      source: 'console',
      text: 'plain',
      url: 'http://site/app.js',
      line: 5,
      column: 3,
      stack: null,
    });
    expect(messages[2]?.stack).toBe(
      '    at report (http://site/app.js:1:3)\n    at <anonymous> (http://site/app.js:41:1)',
    );
  });

  it('keeps an uncaught exception as the console shows it, with its stack, and takes back a rejection handled late', () => {
    const log = new ConsoleLog();
    log.exceptionThrown(TAB, thrown(1, 'Uncaught', 'Error: boom\n    at explode (http://site/app.js:8:4)'));
    log.exceptionThrown(TAB, thrown(2, 'Uncaught (in promise)', 'Error: late'));
    expect(log.list(TAB, ALL).messages).toEqual([
      {
        level: 'error',
        source: 'exception',
        text: 'Uncaught Error: boom',
        url: 'http://site/app.js',
        line: 8,
        column: 4,
        stack: '    at explode (http://site/app.js:8:4)',
      },
      {
        level: 'error',
        source: 'exception',
        text: 'Uncaught (in promise) Error: late',
        url: 'http://site/app.js',
        line: 8,
        column: 4,
        stack: null,
      },
    ]);
    log.exceptionRevoked(TAB, 2);
    expect(texts(log)).toEqual(['Uncaught Error: boom']);
  });

  it("keeps the browser's own messages, verbose as debug", () => {
    const log = new ConsoleLog();
    log.browserEntry(TAB, {
      source: 'network',
      level: 'error',
      text: 'Failed to load resource: the server responded with a status of 404 (Not Found)',
      url: 'http://site/missing.json',
      timestamp: 0,
    });
    log.browserEntry(TAB, { source: 'violation', level: 'verbose', text: 'slow handler', timestamp: 0 });
    expect(log.list(TAB, ALL).messages.map((message) => [message.source, message.level, message.url])).toEqual([
      ['browser', 'error', 'http://site/missing.json'],
      ['browser', 'debug', null],
    ]);
  });

  it('filters by level and by text in any case, and gives the newest max of them with the total', () => {
    const log = new ConsoleLog();
    log.consoleCalled(TAB, call('log', 'Loading cart'));
    log.consoleCalled(TAB, call('error', 'cart failed'));
    log.consoleCalled(TAB, call('warning', 'slow cart'));
    log.consoleCalled(TAB, call('debug', 'tick'));
    expect(texts(log, { levels: ['error', 'warning'] })).toEqual(['cart failed', 'slow cart']);
    expect(texts(log, { textContains: 'CART' })).toEqual(['Loading cart', 'cart failed', 'slow cart']);
    expect(texts(log, { levels: ['debug'], textContains: 'cart' })).toEqual([]);
    const newest = log.list(TAB, { ...ALL, max: 2 });
    expect(newest.messages.map((message) => message.text)).toEqual(['slow cart', 'tick']);
    expect(newest.total).toBe(4);
    expect(log.list('other', ALL)).toEqual({ messages: [], total: 0, dropped: 0, mark: 0 });
  });

  it('gives a mark, and since it only what came after', () => {
    const log = new ConsoleLog();
    log.consoleCalled(TAB, call('log', 'one'));
    const { mark } = log.list(TAB, ALL);
    expect(texts(log, { sinceMark: mark })).toEqual([]);
    log.consoleCalled(TAB, call('log', 'two'));
    expect(texts(log, { sinceMark: mark })).toEqual(['two']);
    expect(log.list(TAB, ALL).mark).toBe(mark + 1);
  });

  it(`keeps the newest ${MESSAGES_PER_TAB} of a tab, counting the ones it let go`, () => {
    const log = new ConsoleLog();
    for (let i = 0; i < MESSAGES_PER_TAB + 7; i += 1) {
      log.consoleCalled(TAB, call('log', `m${i}`));
    }
    const listed = log.list(TAB, ALL);
    expect(listed.total).toBe(MESSAGES_PER_TAB);
    expect(listed.dropped).toBe(7);
    expect(listed.messages[0]?.text).toBe('m7');
    expect(listed.mark).toBe(MESSAGES_PER_TAB + 7);
  });

  it('starts a tab anew on a new page, the marks counting on; a closed tab is forgotten', () => {
    const log = new ConsoleLog();
    for (let i = 0; i < MESSAGES_PER_TAB + 1; i += 1) {
      log.consoleCalled(TAB, call('log', `old ${i}`));
    }
    log.consoleCalled('T2', call('log', 'other tab'));
    const before = log.list(TAB, ALL).mark;
    log.pageChanged(TAB);
    expect(log.list(TAB, ALL)).toEqual({ messages: [], total: 0, dropped: 0, mark: before });
    log.consoleCalled(TAB, call('log', 'new page'));
    expect(texts(log, { sinceMark: before })).toEqual(['new page']);
    expect(log.list('T2', ALL).total).toBe(1);
    log.forget(TAB);
    expect(log.list(TAB, ALL).mark).toBe(0);
  });

  it('counts the errors since the count was last taken, across a new page', () => {
    const log = new ConsoleLog();
    expect(log.takeErrorCount(TAB)).toBe(0);
    log.consoleCalled(TAB, call('error', 'one'));
    log.consoleCalled(TAB, call('warning', 'not an error'));
    log.exceptionThrown(TAB, thrown(1, 'Uncaught', 'Error: two'));
    log.pageChanged(TAB);
    log.browserEntry(TAB, { source: 'network', level: 'error', text: 'three', timestamp: 0 });
    expect(log.takeErrorCount(TAB)).toBe(3);
    expect(log.takeErrorCount(TAB)).toBe(0);
    log.consoleCalled(TAB, call('assert', 'four'));
    expect(log.takeErrorCount(TAB)).toBe(1);
  });
});
