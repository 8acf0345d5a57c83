import { BrowserStoppedEvent } from '../protocol/events/lifecycle.events';
import type { EventRecord } from '../bus/event-record';
import { leasesTabs } from './client-gate';
import { sourceOf, type ClientInfo } from './registry';
import { fieldOf } from '../shared/narrow';

/**
 * Whether a bus event reaches a client's subscription. What one program does stays its own: a program
 * (a native or MCP client, which leases tabs) receives the events its own requests caused (their
 * `source` is its own, children included) and the events of the tabs it leases, nothing of another
 * program's work or of the person's agent. The person (the panel) and in-process callers see everything.
 * An event about the whole browser (BROWSER_WIDE) concerns every client, whoever caused it.
 */
export function eventReaches(
  client: ClientInfo,
  record: EventRecord,
  ownerOf: (targetId: string) => string | undefined,
): boolean {
  if (!leasesTabs(client)) {
    return true;
  }
  if (record.source === sourceOf(client) || BROWSER_WIDE.has(record.event.type)) {
    return true;
  }
  const targetId = targetOf(record.event.payload);
  return targetId !== undefined && ownerOf(targetId) === client.id;
}

/**
 * Events about the whole browser, which every subscribed client gets: the browser was stopped (the
 * person's Stop, the debugging bar's Cancel, a client's stop) is every program's business, since none of
 * its tabs is controlled any more. Their payload says only why (fixed words), nothing of any tab or client.
 */
const BROWSER_WIDE: ReadonlySet<string> = new Set([BrowserStoppedEvent.type]);

/** The tab an event is about, when its payload names one. */
function targetOf(payload: unknown): string | undefined {
  const targetId = fieldOf(payload, 'target_id');
  return typeof targetId === 'string' ? targetId : undefined;
}
