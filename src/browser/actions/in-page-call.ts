import type { IndicatorValueFunctions, PerceptionHandleFunctions, PerceptionValueFunctions } from '../../dom/payload';
import { pageFunctions } from '../../dom/page-bridge';
import type { InPageHandleFunctions, InPageValueFunctions } from './in-page-api';

/**
 * The action routines' calls into their in-page half, through the one page bridge: on an element (its
 * object in tabpilot's isolated world, `this` = the element) or in a frame's world (page-level work:
 * scrolling the page, finding text, coordinate checks).
 */
export const { callOn, callInFrame, callInContext, handleOn, handleInFrame, atDocumentStart } = pageFunctions<
  InPageValueFunctions,
  InPageHandleFunctions
>();

/** The halves and the indicator share one global object in the page: no function name may be taken twice. */
type Actions = keyof InPageValueFunctions | keyof InPageHandleFunctions;
type Perception = keyof PerceptionValueFunctions | keyof PerceptionHandleFunctions;
type Indicator = keyof IndicatorValueFunctions;
type Disjoint<A, B> = [A & B] extends [never] ? true : never;
export const NAMES_ARE_DISJOINT: [Disjoint<Actions, Perception>, Disjoint<Indicator, Actions | Perception>] = [
  true,
  true,
];
