import type { ElementSummary } from '../protocol/events/state.events';
import type { ElementIdentity } from './run-store';

/**
 * The attributes that say which element it is. The state also shows live ones (the typed value,
 * checked, the selected option, aria-expanded) that a replay changes itself, so those are not compared.
 */
const IDENTIFYING = ['id', 'name', 'type', 'role', 'href', 'title', 'alt', 'placeholder', 'aria-label'] as const;

/** The params that name an element by index, in the actions that take them. */
export const INDEX_PARAMS = ['index', 'to_index'] as const;

type Looks = Omit<ElementIdentity, 'occurrence'>;

function flat(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function identifying(attributes: Readonly<Record<string, string>>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const key of IDENTIFYING) {
    const value = attributes[key];
    if (value !== undefined) {
      kept[key] = value;
    }
  }
  return kept;
}

function sameElement(identity: Looks, element: ElementSummary): boolean {
  if (element.tag !== identity.tag || element.role !== identity.role || flat(element.name) !== flat(identity.name)) {
    return false;
  }
  const want = identifying(identity.attributes);
  const have = identifying(element.attributes);
  const keys = new Set([...Object.keys(want), ...Object.keys(have)]);
  return [...keys].every((key) => want[key] === have[key]);
}

/** What to remember of the element `index` of a state, so a later state can be searched for it. */
export function identityOf(index: number, elements: readonly ElementSummary[]): ElementIdentity | undefined {
  const element = elements.find((candidate) => candidate.index === index);
  if (element === undefined) {
    return undefined;
  }
  const identity: Looks = {
    tag: element.tag,
    role: element.role,
    name: flat(element.name),
    attributes: identifying(element.attributes),
  };
  const twins = elements.filter((candidate) => sameElement(identity, candidate));
  return {
    ...identity,
    occurrence: Math.max(
      0,
      twins.findIndex((twin) => twin.index === index),
    ),
  };
}

/**
 * The index the recorded element has in a fresh state: the element with the same tag, role, name and
 * identifying attributes (the same one of its twins when several look alike); null when the page has
 * none like it any more, which a replay reports as ELEMENT_NOT_FOUND rather than guess.
 */
export function refindIndex(identity: ElementIdentity, elements: readonly ElementSummary[]): number | null {
  const twins = elements.filter((candidate) => sameElement(identity, candidate));
  return (twins[identity.occurrence] ?? null)?.index ?? null;
}

/** How a message names a recorded element: `button "Create account"`. */
export function describeIdentity(identity: Looks): string {
  const id = identity.attributes['id'];
  return `${identity.tag}${id === undefined ? '' : `#${id}`} "${identity.name}"`;
}
