import type { Protocol } from '../../protocol/cdp';
import { MAX_ROUTES_PER_TAB, type BlockReasonName, type RouteResourceType } from '../../protocol/routes';
import { TabpilotError } from '../../shared/errors';
import { globMatcher } from './url-glob';

/** What a route answers a matching request with. */
export type RouteAnswer =
  | { kind: 'block'; reason: BlockReasonName }
  | { kind: 'fulfill'; status: number; headers: Protocol.Fetch.HeaderEntry[]; bodyBase64: string };

export interface RouteSpec {
  urlPattern: string;
  resourceType: RouteResourceType | undefined;
  answer: RouteAnswer;
}

/** A route as the client sees it. */
export interface RouteView {
  id: string;
  url_pattern: string;
  resource_type: string | null;
  action: 'block' | 'fulfill';
  error_reason: string | null;
  status: number | null;
  hits: number;
}

interface Route extends RouteSpec {
  id: string;
  hits: number;
  matches: (url: string) => boolean;
}

/** Told a tab's routes changed, so its sessions pause what the routes now name; awaited by the change. */
type RoutesChanged = (pageTargetId: string) => Promise<void>;

/**
 * The routes clients set on their tabs, by the tab's page target, in the order they are tried. One
 * writer (the route watchdog, which also undoes them when the client lets the tab go) and one reader:
 * the request gate, the one owner of CDP's Fetch interception, which pauses the route patterns along
 * with the URL policy's and answers a paused request the policy allows with the first matching route.
 */
export class TabRoutes {
  readonly #byTab = new Map<string, Route[]>();
  readonly #listeners = new Set<RoutesChanged>();
  #nextId = 1;

  /** Follows changes; returns the unsubscribe. */
  onChange(listener: RoutesChanged): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  list(pageTargetId: string): RouteView[] {
    return (this.#byTab.get(pageTargetId) ?? []).map(viewOf);
  }

  /** Adds a route after the tab's others; refused past MAX_ROUTES_PER_TAB. Returns its id. */
  async add(pageTargetId: string, spec: RouteSpec): Promise<string> {
    const routes = this.#byTab.get(pageTargetId) ?? [];
    if (routes.length >= MAX_ROUTES_PER_TAB) {
      throw new TabpilotError(
        'INVALID_PARAMS',
        `The tab has ${MAX_ROUTES_PER_TAB} routes, the most it may hold: remove one (op remove) or clear them first`,
        { details: { field: 'op' } },
      );
    }
    const id = `r${this.#nextId++}`;
    routes.push({ ...spec, id, hits: 0, matches: globMatcher(spec.urlPattern) });
    this.#byTab.set(pageTargetId, routes);
    await this.#changed(pageTargetId);
    return id;
  }

  /** Removes one route; an id the tab does not have is refused, naming route_id. */
  async remove(pageTargetId: string, id: string): Promise<void> {
    const routes = this.#byTab.get(pageTargetId) ?? [];
    const kept = routes.filter((route) => route.id !== id);
    if (kept.length === routes.length) {
      throw new TabpilotError('INVALID_PARAMS', `The tab has no route ${id}: op list shows its routes`, {
        details: { field: 'route_id' },
      });
    }
    this.#set(pageTargetId, kept);
    await this.#changed(pageTargetId);
  }

  async clear(pageTargetId: string): Promise<void> {
    if (!this.#byTab.delete(pageTargetId)) {
      return;
    }
    await this.#changed(pageTargetId);
  }

  /** Whether the tab has any route. */
  has(pageTargetId: string): boolean {
    return this.#byTab.has(pageTargetId);
  }

  /** The Fetch patterns that pause what the tab's routes could answer. */
  patternsFor(pageTargetId: string): Protocol.Fetch.RequestPattern[] {
    return (this.#byTab.get(pageTargetId) ?? []).map((route) => ({
      urlPattern: route.urlPattern,
      ...(route.resourceType === undefined ? {} : { resourceType: route.resourceType }),
      requestStage: 'Request',
    }));
  }

  /** The first of the tab's routes that answers this request, counted as a hit; undefined: none. */
  answer(pageTargetId: string, url: string, resourceType: string): RouteAnswer | undefined {
    const route = this.#byTab
      .get(pageTargetId)
      ?.find((candidate) => candidate.matches(url) && (candidate.resourceType ?? resourceType) === resourceType);
    if (route === undefined) {
      return undefined;
    }
    route.hits++;
    return route.answer;
  }

  #set(pageTargetId: string, routes: Route[]): void {
    if (routes.length === 0) {
      this.#byTab.delete(pageTargetId);
    } else {
      this.#byTab.set(pageTargetId, routes);
    }
  }

  async #changed(pageTargetId: string): Promise<void> {
    await Promise.all([...this.#listeners].map((listener) => listener(pageTargetId)));
  }
}

function viewOf(route: Route): RouteView {
  const { answer } = route;
  return {
    id: route.id,
    url_pattern: route.urlPattern,
    resource_type: route.resourceType ?? null,
    action: answer.kind,
    error_reason: answer.kind === 'block' ? answer.reason : null,
    status: answer.kind === 'fulfill' ? answer.status : null,
    hits: route.hits,
  };
}
