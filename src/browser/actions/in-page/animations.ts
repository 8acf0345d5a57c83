/**
 * Waiting out the animations that move an element: a list that opens with a transition (Material UI's
 * menus grow from the opener) moves its options under the pointer, and a press and release that land on
 * different options click neither. Nothing is waited for when nothing moves the element.
 */
import { composedParent } from './describe';

/** The longest an animation is waited for (an endless or stalled one is not waited out). */
const SETTLE_MS = 1000;

function movesElement(animation: Animation, chain: ReadonlySet<Element>): boolean {
  const effect = animation.effect;
  if (animation.playState !== 'running' || !(effect instanceof KeyframeEffect) || effect.target === null) {
    return false;
  }
  const end = effect.getComputedTiming().endTime;
  return chain.has(effect.target) && typeof end === 'number' && Number.isFinite(end);
}

/** Waits (bounded) until the finite animations running on the element or its ancestors end; true when there were any. */
export async function settleAnimations(this: Element): Promise<boolean> {
  const chain = new Set<Element>([this]);
  for (let element = composedParent(this); element !== null; element = composedParent(element)) {
    chain.add(element);
  }
  const moving = this.ownerDocument.getAnimations().filter((animation) => movesElement(animation, chain));
  if (moving.length === 0) {
    return false;
  }
  const ended = Promise.all(
    moving.map((animation) =>
      animation.finished.then(
        () => true,
        () => true,
      ),
    ),
  );
  await Promise.race([ended, new Promise((resolve) => setTimeout(resolve, SETTLE_MS))]);
  return true;
}
