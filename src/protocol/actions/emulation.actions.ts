import { z } from 'zod';
import { canonicalLocale, isKnownTimeZone, PRESET_NAMES } from '../emulation-settings';
import { defineEvent } from '../define-event';
import { TargetId } from '../events/navigation.events';
import { declareAction } from './declare-action';
import { SETS } from './hints';
import { both } from './words';

const ViewportIn = z.strictObject({
  width: z.number().int().min(1).max(10_000).meta({ details: 'CSS px' }),
  height: z.number().int().min(1).max(10_000).meta({ details: 'CSS px' }),
  device_scale_factor: z
    .number()
    .positive()
    .max(10)
    .optional()
    .meta({ details: 'Device pixels per CSS px (default 1)' }),
  mobile: z
    .boolean()
    .optional()
    .describe('Touch and meta viewport')
    .meta({ details: 'A phone or tablet: the meta viewport applies and touch is on (default false)' }),
});

const PositionIn = z.strictObject({
  latitude: z.number().min(-90).max(90),
  longitude: z.number().min(-180).max(180),
  accuracy: z.number().nonnegative().optional().meta({ details: 'Metres (default 10)' }),
});

const ColorScheme = z.enum(['light', 'dark', 'no-preference']);
const ReducedMotion = z.enum(['reduce', 'no-preference']);

const ViewportOut = z.strictObject({
  width: z.number().int(),
  height: z.number().int(),
  device_scale_factor: z.number(),
  mobile: z.boolean(),
});

/** What is emulated in the tab after the call; null: the browser's own. */
const InForce = z.strictObject({
  viewport: ViewportOut.nullable(),
  user_agent: z.string().nullable(),
  geolocation: z.strictObject({ latitude: z.number(), longitude: z.number(), accuracy: z.number() }).nullable(),
  timezone: z.string().nullable(),
  locale: z.string().nullable(),
  color_scheme: ColorScheme.nullable(),
  reduced_motion: ReducedMotion.nullable(),
  cpu_throttling_rate: z.number().nullable(),
  /**
   * Whether the tab's page may read the emulated position: granted to its origin by emulate (where
   * tabpilot reaches the Browser domain), granted to every site by the config's permissions, or neither
   * (the page asks the person). Null without a geolocation.
   */
  geolocation_permission: z.enum(['granted_to_origin', 'granted_by_config', 'not_granted']).nullable(),
});

/** What is emulated, for the panel: the viewport and every preference set, or that nothing is. */
function inForce(r: z.output<typeof InForce>): string {
  const parts = [
    r.viewport === null ? '' : `${r.viewport.width}×${r.viewport.height}`,
    r.user_agent === null ? '' : 'a user agent',
    r.geolocation === null ? '' : `position ${r.geolocation.latitude}, ${r.geolocation.longitude}`,
    r.timezone ?? '',
    r.locale ?? '',
    r.color_scheme === null ? '' : `${r.color_scheme} scheme`,
    r.reduced_motion === null ? '' : `motion ${r.reduced_motion}`,
    r.cpu_throttling_rate === null ? '' : `CPU ${r.cpu_throttling_rate}× slower`,
  ].filter((part) => part !== '');
  return parts.length === 0 ? 'nothing emulated' : `emulating ${parts.join(', ')}`;
}

export const EmulateEvent = defineEvent('EmulateEvent', {
  payload: {
    target_id: TargetId,
    preset: z
      .enum(PRESET_NAMES)
      .optional()
      .meta({ details: 'A device: its viewport and user agent (viewport and user_agent given too win over it)' }),
    viewport: ViewportIn.optional(),
    user_agent: z.string().min(1).max(512).optional(),
    geolocation: PositionIn.optional().meta({ details: 'The position navigator.geolocation reports' }),
    timezone: z
      .string()
      .min(1)
      .max(64)
      .optional()
      .describe('IANA')
      .meta({ details: 'An IANA time zone, e.g. "America/New_York"' }),
    locale: z
      .string()
      .min(1)
      .max(35)
      .optional()
      .describe('BCP 47')
      .meta({ details: 'A BCP 47 locale, e.g. "de-DE": navigator.language, Accept-Language and Intl' }),
    color_scheme: ColorScheme.optional().meta({ details: 'prefers-color-scheme' }),
    reduced_motion: ReducedMotion.optional().meta({ details: 'prefers-reduced-motion' }),
    cpu_throttling_rate: z
      .number()
      .min(1)
      .max(20)
      .optional()
      .meta({ details: 'How many times slower the CPU runs (1: full speed)' }),
    reset: z
      .boolean()
      .default(false)
      .meta({ details: 'Clear everything emulated in the tab first (then apply what else is given)' }),
  },
  refine: (payload, ctx) => {
    if (payload.timezone !== undefined && !isKnownTimeZone(payload.timezone)) {
      ctx.addIssue({
        code: 'custom',
        path: ['timezone'],
        message: `${JSON.stringify(payload.timezone)} is not an IANA time zone (e.g. "Europe/Paris")`,
      });
    }
    if (payload.locale !== undefined && canonicalLocale(payload.locale) === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['locale'],
        message: `${JSON.stringify(payload.locale)} is not a BCP 47 locale`,
      });
    }
  },
  result: InForce,
  timeoutMs: 10_000,
  description:
    "Emulates a device and its surroundings in the tab: viewport (or a preset device with its user agent), user agent, geolocation, time zone, locale, color scheme, reduced motion and CPU throttling. Each field is optional and the others stay as they were; reset: true clears everything. It lasts across the tab's navigations until reset or until the client releases the tab. The answer is what is emulated now. Geolocation needs the site's permission: in Node it is granted to the tab's origin; through chrome.debugger (the extension, which has no Browser domain) only the config's permissions can grant it, and the answer's geolocation_permission says which. A field the browser cannot emulate fails UNSUPPORTED naming it.",
});

/** Emulating a device in the client's own tab. */
export const EMULATION_ACTIONS = [
  declareAction(EmulateEvent, {
    name: 'emulate',
    notForAgent: true,
    title: 'Emulate a device',
    summary: 'Fields not given stay; reset clears.',
    category: 'page',
    hints: SETS,
    tabGate: 'act',
    panel: {
      label: 'Emulate',
      success: (_p, r) => inForce(r),
      activity: () => both('setting the emulation', 'set the emulation'),
    },
  }),
] as const;
