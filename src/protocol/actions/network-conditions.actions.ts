import { z } from 'zod';
import { NETWORK_PROFILE_NAMES } from '../network-conditions';
import { defineEvent } from '../define-event';
import { TargetId } from '../events/navigation.events';
import { declareAction } from './declare-action';
import { SETS } from './hints';
import { both } from './words';

const Kbps = z.number().positive().max(10_000_000);

/** What is in force in the tab after the call; a null figure is not throttled. */
const InForce = z.strictObject({
  offline: z.boolean(),
  latency_ms: z.number().nullable(),
  download_kbps: z.number().nullable(),
  upload_kbps: z.number().nullable(),
});

/** The panel's line: offline, the throttle, or that the network is the browser's own. */
function inForce(r: z.output<typeof InForce>): string {
  const parts = [
    r.offline ? 'offline' : '',
    r.latency_ms === null ? '' : `${r.latency_ms} ms latency`,
    r.download_kbps === null ? '' : `${r.download_kbps} kbit/s down`,
    r.upload_kbps === null ? '' : `${r.upload_kbps} kbit/s up`,
  ].filter((part) => part !== '');
  return parts.length === 0 ? 'network not throttled' : `network ${parts.join(', ')}`;
}

export const NetworkConditionsEvent = defineEvent('NetworkConditionsEvent', {
  payload: {
    target_id: TargetId,
    offline: z.boolean().optional().meta({ details: 'Every request of the tab fails as without a network' }),
    profile: z.enum(NETWORK_PROFILE_NAMES).optional().describe('none: clear all').meta({
      details:
        "A throttling preset as Chrome DevTools': slow-3g (2000 ms, 400 kbit/s both ways), fast-3g and slow-4g (the same figures: 562.5 ms, 1440 kbit/s down, 675 up); none clears everything",
    }),
    latency_ms: z
      .number()
      .min(0)
      .max(60_000)
      .optional()
      .meta({ details: 'Added to each request (wins over the profile)' }),
    download_kbps: Kbps.optional().meta({ details: 'Download throughput, kbit/s (wins over the profile)' }),
    upload_kbps: Kbps.optional().meta({ details: 'Upload throughput, kbit/s (wins over the profile)' }),
    reset: z.boolean().default(false).meta({ details: 'Clear the conditions first (then apply what else is given)' }),
  },
  result: InForce,
  timeoutMs: 10_000,
  description:
    "Takes the tab offline or throttles its network (latency, download and upload throughput), as a profile or explicit figures. Fields not given stay as they were; reset: true or profile 'none' clears everything. It lasts across the tab's navigations until reset, until the client releases the tab or the tab closes. The answer is what is in force now.",
});

/** Network conditions in the client's own tab. */
export const NETWORK_CONDITIONS_ACTIONS = [
  declareAction(NetworkConditionsEvent, {
    name: 'network_conditions',
    notForAgent: true,
    title: 'Throttle network',
    summary: 'Fields not given stay; reset clears.',
    category: 'page',
    hints: SETS,
    tabGate: 'act',
    panel: {
      label: 'Network conditions',
      success: (_p, r) => inForce(r),
      activity: () => both('setting the network conditions', 'set the network conditions'),
    },
  }),
] as const;
