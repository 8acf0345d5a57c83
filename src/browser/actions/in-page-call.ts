import type { PerceptionHandleFunctions, PerceptionValueFunctions } from '../../dom/payload';
import { pageFunctions } from '../../dom/page-bridge';
import type { InPageHandleFunctions, InPageValueFunctions } from './in-page-api';

/**
 * The action routines' calls into their in-page half, through the one page bridge: on an element (its
 * object in tabpilot's isolated world, `this` = the element) or in a frame's world (page-level work:
 * scrolling the page, finding text, coordinate checks).
 */
export const { callOn, callInFrame, callInContext, handleOn, handleInFrame } = pageFunctions<
  InPageValueFunctions,
  InPageHandleFunctions
>();

/** Both halves share one global object in the page: no function name may be taken twice. */
type Overlap = (keyof InPageValueFunctions | keyof InPageHandleFunctions) &
  (keyof PerceptionValueFunctions | keyof PerceptionHandleFunctions);
export const NAMES_ARE_DISJOINT: [Overlap] extends [never] ? true : never = true;
