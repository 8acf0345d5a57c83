import type { Page } from 'playwright-core';
import { defaultConfig } from '../src/agent/tabpilot-config';
import type { BrowserSession } from '../src/browser/session';
import { composeNodeSession } from '../src/entries/node/compose';
import type { ClientConnection, CommandServer } from '../src/tools/command-server';
import { launchTwins } from './twin-browser';

/** Two animation frames: what a page needs to settle before a timed call. */
export const SETTLE = 'new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))';

/**
 * The two measured sides in their twin browsers: tabpilot (a Node session and a protocol client, as a
 * program drives it) and a Playwright page, both with a 1280x720 viewport.
 */
export interface Sides {
  session: BrowserSession;
  /** The session's server: what the built-in agent's actions go through (not a client's request queue). */
  server: CommandServer;
  client: ClientConnection;
  targetId: string;
  page: Page;
  commandLine: string[];
  /** A protocol request; throws on an error response. */
  command<T>(action: string, params?: Record<string, unknown>): Promise<T>;
  /** Evaluates in tabpilot's tab over its own session (awaiting promises, by value). */
  evaluate<T>(expression: string): Promise<T>;
  close(): Promise<void>;
}

let requestId = 0;

export async function openSides(clientId: string): Promise<Sides> {
  const twins = await launchTwins();
  const { session, server } = composeNodeSession({
    config: {
      ...defaultConfig(),
      viewport: { width: 1280, height: 720 },
      timeouts: { BrowserStateRequestEvent: 120_000 },
    },
    cdpUrl: twins.tabpilotCdpUrl,
  });
  await session.start();
  const client = server.connect({ id: clientId, kind: 'test' }, { send: () => undefined });
  const context = await twins.playwright.newContext({ viewport: { width: 1280, height: 720 } });
  const page = await context.newPage();
  page.setDefaultTimeout(0);
  const targetId = await session.focusedTargetId();
  return {
    session,
    server,
    client,
    targetId,
    page,
    commandLine: twins.commandLine,
    command: async <T>(action: string, params: Record<string, unknown> = {}): Promise<T> => {
      const response = await client.handle({ id: ++requestId, action, params });
      if (!response.ok) {
        throw new Error(`${action}: ${response.error.code} ${response.error.message}`);
      }
      return response.result as T;
    },
    evaluate: async <T>(expression: string): Promise<T> => {
      const response = await session.targets
        .requireSession(targetId)
        .send('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true });
      return response.result.value as T;
    },
    close: async () => {
      client.close();
      await session.stop();
      session.dispose();
      await twins.close();
    },
  };
}
