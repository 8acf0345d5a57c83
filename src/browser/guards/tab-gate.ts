import type { AnyEventDefinition } from '../../protocol/define-event';
import type { BusMiddleware } from '../../bus/event-bus';
import { ACTIONS, type GateClass } from '../../protocol/actions';
import type { TabConditions } from './tab-conditions';

/**
 * Which events touch a tab, and how, as each action's declaration says (tabGate): the gate holds or
 * refuses them while the tab has a condition. Announcements (TabCreated, NavigationStarted...), focus
 * changes, close and wait are not gated.
 */
const CLASSES: ReadonlyMap<string, GateClass> = new Map(
  ACTIONS.flatMap((action): Array<[string, GateClass]> =>
    action.tabGate === undefined ? [] : [[action.event.type, action.tabGate]],
  ),
);

/** Time kept back from an event's own timeout, so a held event fails with the gate's error, not a timeout. */
const DEADLINE_MARGIN_MS = 500;

export function gateClassOf(type: string): GateClass | undefined {
  return CLASSES.get(type);
}

/** The tab an event acts on: its `target_id`, or (null or none) the focused tab. */
export function tabOfPayload(payload: unknown, focused: string | undefined): string | undefined {
  const fields = (payload ?? {}) as Record<string, unknown>;
  if (fields['new_tab'] === true) {
    return undefined;
  }
  if (typeof fields['target_id'] === 'string') {
    return fields['target_id'];
  }
  return focused;
}

export interface GateView {
  readonly conditions: TabConditions;
  focusedTargetId(): string | undefined;
  timeoutFor(definition: AnyEventDefinition): number;
}

/**
 * Bus middleware in front of every handler of a gated event: each condition of the event's tab admits,
 * holds or refuses it (a crashed tab refuses at once instead of hanging; a captcha holds actions until a
 * person solved it). One admission per event, shared by all its handlers.
 */
export function tabGate(view: GateView): BusMiddleware {
  const admissions = new WeakMap<object, Promise<void>>();
  return async (invocation, next) => {
    const gate = CLASSES.get(invocation.definition.type);
    if (gate === undefined) {
      return next();
    }
    let admission = admissions.get(invocation.event);
    if (admission === undefined) {
      const targetId = tabOfPayload(invocation.event.payload, view.focusedTargetId());
      const conditions = targetId === undefined ? [] : view.conditions.of(targetId);
      if (conditions.length === 0) {
        return next();
      }
      const deadline = Date.now() + view.timeoutFor(invocation.definition) - DEADLINE_MARGIN_MS;
      admission = (async () => {
        for (const condition of conditions) {
          await condition.admit(gate, { deadline, signal: invocation.signal });
        }
      })();
      admissions.set(invocation.event, admission);
    }
    await admission;
    return next();
  };
}
