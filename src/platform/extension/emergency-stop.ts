import type { CommandResponse, RequestId } from '../../protocol/commands';
import type { ClientConnection } from '../../tools/command-server';
import { stopHoldReason } from './client-hold';
import type { TimelineRecorder } from './timeline-recorder';
import { fieldOf } from '../../shared/narrow';

/**
 * The emergency stop (panel button or keyboard command): the protocol's `stop` (cancel queued work,
 * detach every debugger session), then a note in the timeline that says what it did. The clients are
 * held before the stop runs, so none of them attaches again between the stop and the hold.
 */
export async function emergencyStop(options: {
  connection: ClientConnection;
  timeline: TimelineRecorder;
  /** Who pressed it, as the timeline shows it: "panel", "keyboard shortcut". */
  origin: string;
  controlledCount: () => number;
  /** Holds every client until the person resumes in the panel (TabRouter.holdClients). */
  holdClients: (reason: string) => void;
  id: RequestId;
}): Promise<CommandResponse> {
  const { connection, timeline, origin } = options;
  const attached = options.controlledCount();
  options.holdClients(stopHoldReason(origin));
  const response = await connection.handle({ id: options.id, action: 'stop', params: {} });
  if (response.ok) {
    const cancelled = String(fieldOf(response.result, 'cancelled'));
    timeline.note(
      'warn',
      `Emergency stop (${origin}): cancelled ${cancelled} running or queued command(s) and detached every debugger session (${attached} tab(s)). Nothing is attached until you attach again, and no program may attach or open a tab until you press Resume.`,
    );
  } else {
    timeline.note('error', `Emergency stop (${origin}) failed: ${response.error.code}: ${response.error.message}`);
  }
  return response;
}
