import { CdpProtocolError } from '../../cdp/errors';
import type { CdpSession } from '../../cdp/session';
import type { Logger } from '../../shared/logger';
import { callInFrame } from '../actions/in-page-call';
import { pageHidden } from '../actions/mouse';
import { bestEffort } from '../../shared/logger';
import { TabpilotError, errorMessageOf } from '../../shared/errors';
import { noEmulation, type EmulationState } from '../../protocol/emulation-settings';

/** The window size the config asks for in every tab (config.viewport), which a cleared viewport returns to. */
export type BaseViewport = { width: number; height: number } | null;

/** One part of the emulation, sent as one or two CDP commands that set it or, given null, clear it. */
interface Part {
  /** The fields of the state it covers (the protocol's names, for errors). */
  readonly fields: ReadonlyArray<keyof EmulationState>;
  send(session: CdpSession, state: EmulationState, base: BaseViewport): Promise<void>;
}

/**
 * Waits until the page has drawn two frames since now, so it has taken a new window size before the
 * action answers: the size reaches the renderer on its own channel, which a page read sent right after
 * could overtake (a CI run read the preset's width after a reset under load); the frames come after it.
 * A hidden page draws no frames and is not waited for.
 */
async function laidOut(session: CdpSession): Promise<void> {
  if (!(await pageHidden(session))) {
    await callInFrame(session, 'renderedFrame');
  }
}

const PARTS: readonly Part[] = [
  {
    fields: ['viewport'],
    async send(session, { viewport }, base) {
      if (viewport !== null) {
        await session.send('Emulation.setDeviceMetricsOverride', {
          width: viewport.width,
          height: viewport.height,
          deviceScaleFactor: viewport.device_scale_factor,
          mobile: viewport.mobile,
        });
      } else if (base !== null) {
        // The config's viewport is what every tab has without emulate (BrowserSession's session setup).
        await session.send('Emulation.setDeviceMetricsOverride', { ...base, deviceScaleFactor: 1, mobile: false });
      } else {
        await session.send('Emulation.clearDeviceMetricsOverride');
      }
      await session.send('Emulation.setTouchEmulationEnabled', { enabled: viewport?.mobile ?? false });
      await laidOut(session);
    },
  },
  {
    // navigator.language and Accept-Language follow acceptLanguage; an empty userAgent keeps the browser's.
    fields: ['user_agent', 'locale'],
    async send(session, { user_agent, locale }) {
      await session.send('Emulation.setUserAgentOverride', {
        userAgent: user_agent ?? '',
        ...(locale === null ? {} : { acceptLanguage: locale }),
      });
    },
  },
  {
    // Intl's default locale (dates, numbers), which Accept-Language does not change.
    fields: ['locale'],
    async send(session, { locale }) {
      await session.send('Emulation.setLocaleOverride', locale === null ? {} : { locale });
    },
  },
  {
    fields: ['geolocation'],
    async send(session, { geolocation }) {
      if (geolocation === null) {
        await session.send('Emulation.clearGeolocationOverride');
      } else {
        await session.send('Emulation.setGeolocationOverride', geolocation);
      }
    },
  },
  {
    fields: ['timezone'],
    async send(session, { timezone }) {
      await session.send('Emulation.setTimezoneOverride', { timezoneId: timezone ?? '' });
    },
  },
  {
    fields: ['color_scheme', 'reduced_motion'],
    async send(session, { color_scheme, reduced_motion }) {
      const features = [
        ...(color_scheme === null ? [] : [{ name: 'prefers-color-scheme', value: color_scheme }]),
        ...(reduced_motion === null ? [] : [{ name: 'prefers-reduced-motion', value: reduced_motion }]),
      ];
      await session.send('Emulation.setEmulatedMedia', { features });
    },
  },
  {
    fields: ['cpu_throttling_rate'],
    async send(session, { cpu_throttling_rate }) {
      await session.send('Emulation.setCPUThrottlingRate', { rate: cpu_throttling_rate ?? 1 });
    },
  },
];

function changed(part: Part, before: EmulationState, after: EmulationState): boolean {
  return part.fields.some((field) => JSON.stringify(before[field]) !== JSON.stringify(after[field]));
}

/**
 * What a refused command means for the client: a timezone or locale the browser does not know is the
 * client's mistake (INVALID_PARAMS); anything else the browser or transport cannot emulate is UNSUPPORTED,
 * naming the field. A closed tab or lost connection keeps its own code.
 */
function clientError(part: Part, after: EmulationState, error: unknown): unknown {
  if (!(error instanceof TabpilotError) || !(error instanceof CdpProtocolError || error.code === 'UNSUPPORTED')) {
    return error;
  }
  const field = part.fields.find((name) => after[name] !== null) ?? part.fields[0];
  const value = field === undefined ? undefined : after[field];
  if ((field === 'timezone' || field === 'locale') && error instanceof CdpProtocolError) {
    return new TabpilotError(
      'INVALID_PARAMS',
      `${field}: the browser does not know ${JSON.stringify(value)} (${error.protocolMessage}); give an IANA time zone such as "Europe/Paris" or a BCP 47 locale such as "fr-FR"`,
      { details: { field }, cause: error },
    );
  }
  return new TabpilotError('UNSUPPORTED', `${field ?? 'emulation'} cannot be emulated here: ${errorMessageOf(error)}`, {
    details: { field },
    cause: error,
  });
}

/**
 * Sends what differs between two states to a tab's session. On a refusal, what was sent is taken back
 * (best effort) so the tab is left as `before`, and the refusal is thrown as a client's error.
 */
export async function applyEmulation(
  session: CdpSession,
  before: EmulationState,
  after: EmulationState,
  base: BaseViewport,
  log: Logger,
): Promise<void> {
  const sent: Part[] = [];
  for (const part of PARTS) {
    if (!changed(part, before, after)) {
      continue;
    }
    try {
      await part.send(session, after, base);
      sent.push(part);
    } catch (error) {
      // The refused part may have sent one of its two commands: it is taken back too.
      for (const done of [...sent, part]) {
        await bestEffort(done.send(session, before, base), log, 'taking back a part of a refused emulation');
      }
      throw clientError(part, after, error);
    }
  }
}

/** Sends every part of a state to a session that holds none of it yet (a new session after a reconnect). */
export async function reapplyEmulation(
  session: CdpSession,
  state: EmulationState,
  base: BaseViewport,
  log: Logger,
): Promise<void> {
  await applyEmulation(session, noEmulation(), state, base, log);
}
