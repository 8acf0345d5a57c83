import type { EventRecord } from '../bus/event-record';
import { leasesTabs } from './client-gate';
import { sourceOf, type ClientInfo } from './registry';

/**
 * Whether a bus event reaches a client's subscription. What one program does stays its own: a program
 * (a native or MCP client, which leases tabs) receives the events its own requests caused (their
 * `source` is its own, children included) and the events of the tabs it leases, nothing of another
 * program's work or of the person's agent. The person (the panel) and in-process callers see everything.
 */
export function eventReaches(
  client: ClientInfo,
  record: EventRecord,
  ownerOf: (targetId: string) => string | undefined,
): boolean {
  if (!leasesTabs(client)) {
    return true;
  }
  if (record.source === sourceOf(client)) {
    return true;
  }
  const targetId = targetOf(record.event.payload);
  return targetId !== undefined && ownerOf(targetId) === client.id;
}

/** The tab an event is about, when its payload names one. */
function targetOf(payload: unknown): string | undefined {
  if (typeof payload !== 'object' || payload === null) {
    return undefined;
  }
  const targetId = (payload as { target_id?: unknown }).target_id;
  return typeof targetId === 'string' ? targetId : undefined;
}
