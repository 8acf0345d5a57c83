import { z } from 'zod';
import { TabpilotError } from '../shared/errors';
import { PERMISSIONS_CONFIG } from './permissions/permissions.config';
import { SECURITY_CONFIG } from './security/security.config';
import { firstProblem } from '../shared/zod-issues';
import { NATIVE_CONFIG_SHAPE } from './native-clients.config';
import { EVENT_NAMES } from '../protocol/events/index';
import { ArtifactsConfigShape } from './artifacts/artifacts.config';
import { connectConfigShape } from './session/connect.config';
import { HistoryConfigShape } from '../bus/history.config';
import { GUARDS_CONFIG } from './guards/guards.config';
import { VIDEO_CONFIG_SHAPE } from './recording/video.config';
import { INDICATOR_CONFIG } from './indicator/indicator.config';

const Timeouts = z
  .record(z.string(), z.number().int().min(1).max(3_600_000))
  .superRefine((value, ctx) => {
    for (const key of Object.keys(value)) {
      if (!EVENT_NAMES.includes(key)) {
        ctx.addIssue({ code: 'custom', path: [key], message: `unknown event name (known: ${EVENT_NAMES.join(', ')})` });
      }
    }
  })
  .describe('Per-event handler timeouts in ms, keyed by event name (e.g. NavigateToUrlEvent)');

const Reconnect = z
  .strictObject({
    max_attempts: z.number().int().min(0).max(20).default(3).describe('Attempts after a drop; 0 turns reconnect off'),
    backoff_ms: z
      .array(z.number().int().min(0))
      .default([1000, 2000, 4000])
      .describe('Pauses between attempts (the last repeats); a longer Retry-After from a pool wins'),
    attempt_timeout_ms: z
      .number()
      .int()
      .positive()
      .default(15_000)
      .describe(
        "One attempt, whole: opening the socket (a pool's queue included) and restoring the tabs; a slower attempt is abandoned and the next begins",
      ),
    wait_ms: z
      .number()
      .int()
      .positive()
      .default(25_000)
      .describe('How long a command waits for a reconnect in progress before failing with DISCONNECTED'),
  })
  .describe(
    'How a dropped CDP connection is re-established to the same browser (Node); an endpoint that gives a new browser per connection (a pool) is not reconnected to',
  );

const Launch = z
  .strictObject({
    headless: z.boolean().nullable().default(null).describe('null: headless when there is no display'),
    executable_path: z.string().nullable().default(null),
    user_data_dir: z.string().nullable().default(null).describe('null: a temporary profile removed on stop'),
    remote_debugging_port: z
      .number()
      .int()
      .min(0)
      .max(65535)
      .nullable()
      .default(null)
      .describe(
        'null: no TCP port, tabpilot speaks DevTools over a pipe only (no other process or user on the machine can reach the browser); 0: a free port; N: that port (for a debugger or another tool); a port is reachable by every local user',
      ),
    args: z.array(z.string()).default([]),
  })
  .describe('How tabpilot launch starts Chromium (Node only)');

const State = z
  .strictObject({
    viewport_expansion: z
      .number()
      .int()
      .min(-1)
      .default(1000)
      .describe('CSS px beyond the viewport shown in a state; -1 for the whole page'),
    max_chars: z.number().int().min(0).default(40_000).describe('Character budget of the state text; 0 for none'),
    screenshot_format: z.enum(['png', 'jpeg', 'webp']).default('jpeg'),
    screenshot_quality: z.number().int().min(1).max(100).default(70),
    hidden_text: z
      .enum(['omit', 'mark'])
      .default('omit')
      .describe(
        'Text a person cannot see (zero font size, far off-screen, clipped away, coloured like its background): omit leaves it out of the state; mark keeps it, marked [hidden: why]',
      ),
  })
  .describe('How the page is shown to the model');

const Dialogs = z
  .strictObject({
    auto_answer: z
      .boolean()
      .default(true)
      .describe(
        'Answer JavaScript dialogs at once; off: a dialog stays open until handle_dialog answers it (the state shows it as open_dialog, and other actions on its tab are refused naming it), except beforeunload, which the navigation that caused it waits for',
      ),
    confirm: z
      .enum(['accept', 'dismiss'])
      .default('dismiss')
      .describe('The answer to confirm(); alert and beforeunload are accepted, prompt dismissed'),
  })
  .describe('How JavaScript dialogs in controlled tabs are answered; the messages appear in the next state');
const Viewport = z.strictObject({ width: z.number().int().positive(), height: z.number().int().positive() });

/**
 * The browser's part of the one configuration object, snake_case like browser-use's profile. Every level
 * is strict: an unknown or invalid field is refused with its path named. The browser's parts add their
 * fields here; the agent's are added above this layer (src/agent/tabpilot-config.ts composes the whole,
 * which the panel and `describe` render from its JSON Schema). The session, its watchdogs and the actions
 * read only this part.
 */
export const BrowserConfig = z.strictObject({
  timeouts: Timeouts.default({}),
  cdp_timeout_ms: z.number().int().positive().default(30_000).describe('Per CDP command'),
  ...connectConfigShape,
  reconnect: Reconnect.default({
    max_attempts: 3,
    backoff_ms: [1000, 2000, 4000],
    attempt_timeout_ms: 15_000,
    wait_ms: 25_000,
  }),
  launch: Launch.default({
    headless: null,
    executable_path: null,
    user_data_dir: null,
    remote_debugging_port: null,
    args: [],
  }),
  viewport: Viewport.nullable().default(null).describe('Emulated viewport for new tabs; null keeps the window size'),
  state: State.default({
    viewport_expansion: 1000,
    max_chars: 40_000,
    screenshot_format: 'jpeg',
    screenshot_quality: 70,
    hidden_text: 'omit',
  }),
  dialogs: Dialogs.default({ auto_answer: true, confirm: 'dismiss' }),
  output_dir: z
    .string()
    .min(1)
    .default('.')
    .describe('Node: the folder screenshots and PDFs are saved under (file names are relative to it)'),
  allow_evaluate: z
    .boolean()
    .default(false)
    .describe('Offer the evaluate action (runs JavaScript in the page); off unless you trust every client'),
  sensitive_data: z
    .record(z.string().min(1), z.record(z.string().min(1), z.string()))
    .default({})
    .describe(
      'Secrets by domain pattern: {"*.example.com": {"password": "..."}}. Actions write <secret>password</secret> and the value is filled in only on matching pages; values never appear in logs, history or results.',
    )
    // JSON Schema's writeOnly: forms built from the schema (the side panel's settings) mask the values.
    .meta({ writeOnly: true }),
  upload_paths: z
    .array(z.string().min(1))
    .default([])
    .describe(
      "Directories on the browser's machine that upload_file may take files from by path; empty refuses uploads by path (uploads of the file content always work)",
    ),
  native_clients_see_all_tabs: z
    .boolean()
    .default(false)
    .describe('Extension: let native clients list the tabs tabpilot does not control (tabs {all: true})'),
  ...SECURITY_CONFIG,
  ...PERMISSIONS_CONFIG,
  ...ArtifactsConfigShape,
  ...NATIVE_CONFIG_SHAPE,
  ...HistoryConfigShape,
  ...GUARDS_CONFIG,
  ...VIDEO_CONFIG_SHAPE,
  ...INDICATOR_CONFIG,
});

export type BrowserConfig = z.output<typeof BrowserConfig>;
export type BrowserConfigInput = z.input<typeof BrowserConfig>;

/** The browser's part with every default: what a session runs on when nothing else is given (tests, benches). */
export function defaultBrowserConfig(): BrowserConfig {
  return BrowserConfig.parse({});
}

/** Parses the browser's part alone, throwing INVALID_PARAMS with the offending field's path. */
export function parseBrowserConfig(input: unknown): BrowserConfig {
  return parseConfigOf(BrowserConfig, input);
}

/** Parses a config by its schema (the browser's part, or the whole), throwing ConfigError naming the field. */
export function parseConfigOf<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const parsed = schema.safeParse(input ?? {});
  if (!parsed.success) {
    throw configError(parsed.error);
  }
  return parsed.data;
}

export class ConfigError extends TabpilotError {
  readonly field: string;
  constructor(field: string, message: string) {
    super('INVALID_PARAMS', `config ${field === '' ? '' : `field ${field}: `}${message}`, { details: { field } });
    this.name = 'ConfigError';
    this.field = field;
  }
}

function configError(error: z.ZodError): ConfigError {
  const { field, message } = firstProblem(error);
  return new ConfigError(field, message);
}

/** A config's JSON Schema as clients read it: the input side (defaults, optional fields). */
export function configJsonSchemaOf(schema: z.ZodType): unknown {
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });
}
