import type { BrowserSession } from '../browser/session';
import { ControlStopRequestedEvent } from '../protocol/events/indicator.events';
import type { CommandResponse } from '../protocol/commands';
import type { Logger } from '../shared/logger';
import type { ClientConnection, CommandServer } from './command-server';

/**
 * Answers Stop pressed on a tab's in-page indicator with the protocol's `stop`, sent as a person's own
 * control (a panel-kind client: it reaches every client's tabs), so it cancels every running and queued
 * command and lets go of every tab, as the panel's Stop does. The stop is not awaited in the handler: it
 * cancels every running event, and the request event would be one of them. Returns what unsubscribes it.
 */
export function answerInPageStop(options: {
  session: BrowserSession;
  server: CommandServer;
  log: Logger;
  /** Sends the stop; by default the plain `stop` action (the extension's emergency stop also notes it in the timeline). */
  stop?: (connection: ClientConnection, targetId: string, id: string) => Promise<CommandResponse>;
}): () => void {
  const stop =
    options.stop ??
    ((connection: ClientConnection, _targetId: string, id: string) =>
      connection.handle({ id, action: 'stop', params: {} }));
  const connection = options.server.connect({ id: 'in-page-stop', kind: 'panel' }, { send: () => undefined });
  let count = 0;
  return options.session.bus.on(
    ControlStopRequestedEvent,
    (event) => {
      count += 1;
      const targetId = event.payload.target_id;
      void stop(connection, targetId, `in-page-stop-${count}`)
        .then((response) => {
          if (!response.ok) {
            options.log.warn('the in-page stop was refused', { code: response.error.code });
          }
        })
        .catch((error: unknown) => options.log.warn('the in-page stop failed', { error: String(error) }));
    },
    { name: 'answerInPageStop.on_ControlStopRequestedEvent' },
  );
}
