import { z } from 'zod';
import type { AnyEventDefinition, PayloadInputOf, PayloadOf, ResultOf } from '../define-event';
import type { Public } from '../public-result';

/** The tool groups a client can pick (the MCP server's `--tools`), and the panel's groups. */
export const ACTION_CATEGORIES = ['page', 'tabs', 'content', 'files', 'session'] as const;
export type ActionCategory = (typeof ACTION_CATEGORIES)[number];

/** How an action may affect the world, as MCP's tool annotations say it (clients treat them as hints). */
export interface ActionHints {
  /** Changes nothing in the page or the browser. */
  readonly readOnly: boolean;
  /** May destroy something (close a tab, overwrite a file, submit what cannot be undone). */
  readonly destructive: boolean;
  /** Doing it twice has the same effect as once. */
  readonly idempotent: boolean;
  /** Reaches beyond the browser's current pages (the web, the disk). */
  readonly openWorld: boolean;
}

/** The params a client sends: the event's payload with `tab_id` for `target_id`, before defaults. */
export type ParamsIn<D extends AnyEventDefinition> = Omit<PayloadInputOf<D>, 'target_id'> & { tab_id?: string };
/** The result a client receives: the event's result with tab ids for target ids. */
export type ResultOut<D extends AnyEventDefinition> = Public<ResultOf<D>>;

/** The same act while it runs and after it ran (lowercase; the panel capitalises). */
export interface Phrase {
  readonly doing: string;
  readonly did: string;
}

/**
 * How the MCP server answers the action: `state` as the page text with its structured content, a
 * `screenshot` as an image, a `pdf` or `har` file it links, `pages` of markdown, the `tab_list`, where a
 * `navigation` landed, a run's `step_picture`, a `batch`'s steps, the `console`'s and the `network`'s lines
 * (one per entry), or by default its `fields` one per line.
 */
export type McpAnswer =
  | 'state'
  | 'screenshot'
  | 'pdf'
  | 'har'
  | 'pages'
  | 'tab_list'
  | 'navigation'
  | 'step_picture'
  | 'batch'
  | 'console'
  | 'network'
  | 'fields';

/** What the MCP server makes of an action beyond its name, summary and params. */
export interface McpFacts {
  /** One of the few tools that drive a page end to end (`--slim`). */
  readonly slim?: boolean;
  /** How its answer is put; by default its fields one per line. */
  readonly answer?: McpAnswer;
}

/**
 * How the tab gate treats the action while its tab has a condition (crashed, stuck, waiting for a
 * person): `act` and `read` are held or refused, `recover` is let through to bring the tab back.
 */
export type GateClass = 'act' | 'read' | 'recover';

/** What the client gate does beyond the tab rule, for the actions that touch leases themselves. */
export type LeaseRole = 'list' | 'attach' | 'release' | 'take';

/** The built-in agent's risk classes an action can carry, judged before it runs (risk-classifier.ts). */
export type RiskRule =
  'goes_to_url' | 'history_entry' | 'search_results' | 'clicked_element' | 'enter_key' | 'file_upload' | 'page_script';

/**
 * The step of a flow (src/protocol/flow.ts) the action becomes in the built-in agent's run's flow
 * (src/agent/run-flow.ts): `arrival` is a `navigate` to the URL it arrived at (a history step).
 */
export type FlowStepRule =
  'navigate' | 'arrival' | 'click' | 'fill' | 'select' | 'press' | 'upload' | 'switch_tab' | 'scroll_by';

/** The person's powers a program must ask for each time (person-powers.ts). */
export type PersonPower = 'export_storage' | 'import_storage' | 'record_traffic';

/** How the panel's element view offers an action on one element. */
export type ElementWidget = 'press' | 'type' | 'choose' | 'upload';

export interface ActionSpec<D extends AnyEventDefinition> {
  readonly name: string;
  /** What a person reads for it in a tool list (MCP's `title`). */
  readonly title: string;
  readonly category: ActionCategory;
  readonly hints: ActionHints;
  /**
   * What a model reads for it every turn (the MCP tool's description, the built-in agent's tool): one or
   * two short sentences, what it does and what a model must know to call it well. The long words (each
   * case, each platform) go in the description, which the generated reference and the panel show.
   */
  readonly summary: string;
  /** Defaults to the event's description. */
  readonly description?: string;
  /** `tab_id` must be given (switch, close) instead of defaulting to the focused tab. */
  readonly tabRequired?: boolean;
  /** Cancels every queued and running command first, and never waits behind them: the emergency stop. */
  readonly preempt?: boolean;
  /** Held or refused while its tab has a condition; none: it touches no one tab's page (tab-gate.ts). */
  readonly tabGate?: GateClass;
  /** It loads a page or takes a tab, so the person's hold (their Stop, their Cancel) refuses it to programs. */
  readonly loadsPage?: boolean;
  /** The tab is another page afterwards (or another tab): an agent stops its batch there. */
  readonly changesPage?: boolean;
  /**
   * It acts on its tab's page, so a request that asks gets its verified outcome (protocol/outcome.ts):
   * what changed once the page settled, or why it did not work.
   */
  readonly outcome?: boolean;
  /** Only reads: after it the page needs no time to settle. */
  readonly onlyReads?: boolean;
  /**
   * The person's alone: `extension` where the browser is theirs (the emergency stop; in Node a program
   * started the browser), `always` on every transport (recording what the person does, which no program
   * may watch: it is never listed as an MCP tool either). A program's request is refused FORBIDDEN.
   */
  readonly personOnly?: 'extension' | 'always';
  readonly lease?: LeaseRole;
  /** A program without a tab gets a new one for it instead of NOT_ATTACHED. */
  readonly opensTab?: boolean;
  readonly risk?: RiskRule;
  /** The step an agent's run's flow keeps for it; none: it makes no step (a read, a wait). */
  readonly flowStep?: FlowStepRule;
  /** A program must ask the person each time (a native or MCP client). */
  readonly personPower?: PersonPower;
  /**
   * Not offered to the built-in agent by default: the person's controls, what it gets each step anyway
   * (the state, a screenshot), searches `find` does for it (search_page, find_elements), and the developer tools (network mocks, traces, emulation, cookies and storage writes) a task in the
   * person's browser does not need and should not do unasked. agent.exclude_actions can offer them.
   */
  readonly notForAgent?: boolean;
  readonly panel: {
    /** The action's name in the panel's list. */
    readonly label: string;
    /** Params the panel's form leaves out because another one says the same. */
    readonly hiddenParams?: readonly string[];
    /** How the panel's element view offers it on one element, and the button's word. */
    readonly element?: { readonly widget: ElementWidget; readonly button: string };
    /** One line for a success, in the panel's answer view. */
    readonly success?: (params: ParamsIn<D>, result: ResultOut<D>) => string;
    /** The timeline's words while it runs and once it ran (the event's payload, its first result). */
    readonly activity?: (payload: PayloadOf<D>, result: Partial<ResultOf<D>>) => Phrase;
  };
  readonly mcp?: McpFacts;
}

export interface ActionDeclaration<D extends AnyEventDefinition = AnyEventDefinition> extends ActionSpec<D> {
  /** The event the action emits; its payload declares the params, its result is the action's result. */
  readonly event: D;
  readonly description: string;
  readonly preempt: boolean;
  /** The protocol's params: the event's payload, with `target_id` offered as `tab_id`. */
  readonly params: z.ZodType;
  /** How the event names its tab: required (the client's focused tab by default), optional, or not at all. */
  readonly tabBinding: 'focused' | 'required' | 'optional' | 'none';
}

/** Any action's declaration: its event is known to be an event, its words take any params and result. */
export type AnyActionDeclaration = ActionDeclaration<AnyEventDefinition>;

// No description a model reads: the tools' instructions say once that a tab id comes from "tabs" and
// defaults to the focused tab; the reference reads the details.
const TabId = z.string().min(1).max(64).meta({ details: 'A tab id from "tabs"' });

/**
 * Declares a protocol action over its event. The params are derived from the event's payload, so each
 * parameter, default and description is written once:
 * - a required `target_id` becomes an optional `tab_id` (the client's focused tab when absent), or a
 *   required one with `tabRequired`;
 * - an optional `target_id` becomes an optional `tab_id` that stays absent when not given;
 * - every other field is the event's own, with the event's cross-field rules.
 */
export function declareAction<D extends AnyEventDefinition, const N extends string>(
  event: D,
  spec: ActionSpec<D> & { readonly name: N },
): ActionDeclaration<D> & { readonly name: N } {
  const payloadShape = event.payloadShape as z.ZodObject;
  const shape: Record<string, z.ZodType> = { ...payloadShape.shape };
  const target = shape['target_id'];
  let tabBinding: ActionDeclaration['tabBinding'] = 'none';
  if (target !== undefined) {
    delete shape['target_id'];
    tabBinding = spec.tabRequired === true ? 'required' : target.safeParse(undefined).success ? 'optional' : 'focused';
    shape['tab_id'] =
      tabBinding === 'required'
        ? TabId
        : TabId.optional().meta({ details: 'A tab id from "tabs"; default the focused tab' });
  }
  const object = z.strictObject(shape);
  const refine = event.refine;
  const params: z.ZodType =
    refine === undefined
      ? object
      : object.superRefine((value, ctx) => {
          refine(value, ctx);
        });
  return {
    ...spec,
    event,
    description: spec.description ?? event.description,
    preempt: spec.preempt ?? false,
    params,
    tabBinding,
  };
}
