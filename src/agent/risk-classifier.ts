import { getDomain } from 'tldts';
import type { AgentRisk } from '../protocol/events/agent.events';
import { SEARCH_ENGINES } from '../protocol/events/navigation.events';
import type { ElementSummary } from '../protocol/events/state.events';
import { searchUrl } from '../browser/search-url';
import { declarationOf } from '../protocol/actions';
import type { ModelAction } from './model';
import { fieldOf, isOneOf, stringFieldOf } from '../shared/narrow';

/** Why an action waits for the person: its class and a sentence naming what it touches. */
export interface RiskFinding {
  readonly risk: AgentRisk;
  readonly reason: string;
}

/** What is known of the page before the action runs (the state it was chosen on, and a look at its forms). */
export interface RiskFacts {
  /** The URL of the page the action was chosen on; null when the state could not be read. */
  readonly pageUrl: string | null;
  readonly elements: readonly ElementSummary[];
  /** Registrable domains the run has been on so far. */
  readonly visitedDomains: ReadonlySet<string>;
  /** Indexed elements that carry a download attribute (a[download], area[download]). */
  readonly downloadIndexes: ReadonlySet<number>;
  /** Indexed controls that submit a form, with the absolute URL the form sends its fields to. */
  readonly submitTargets: ReadonlyMap<number, string>;
  /** Where the form holding the focused field sends it (Enter in the field submits it); null: none known. */
  readonly focusedFormTarget: string | null;
  /** Where a go_back or go_forward lands: the tab's history entry on that side; null: none known. */
  readonly historyTarget: string | null;
}

/**
 * File types a browser saves rather than shows: a link or navigation to one starts a download. A
 * server's Content-Disposition would also make one, but that is only known once the response comes.
 */
const DOWNLOAD_EXTENSIONS = new Set([
  'zip',
  'gz',
  'tgz',
  'bz2',
  'xz',
  'tar',
  'rar',
  '7z',
  'exe',
  'msi',
  'dmg',
  'pkg',
  'deb',
  'rpm',
  'apk',
  'appimage',
  'iso',
  'img',
  'bin',
  'jar',
  'doc',
  'docx',
  'xls',
  'xlsx',
  'ppt',
  'pptx',
  'odt',
  'ods',
  'odp',
  'csv',
  'epub',
  'torrent',
]);

/**
 * The owner-level domain of a URL (example.co.uk for www.example.co.uk; private suffixes such as
 * github.io count, so two sites under one are two domains); the host itself for an IP address or a
 * single-label host (localhost); null for URLs without a host (about:, data:).
 */
export function registrableDomain(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // Not an absolute URL: there is no domain to judge.
    return null;
  }
  if ((parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || parsed.hostname === '') {
    return null;
  }
  return getDomain(parsed.hostname, { allowPrivateDomains: true }) ?? parsed.hostname;
}

/** navigate's own rule: a bare host such as example.com/x gets https://. */
function navigationUrl(raw: string): string {
  return /^[a-z][a-z0-9+.-]*:/i.test(raw) ? raw : `https://${raw}`;
}

function resolved(raw: string, base: string | null): string | null {
  try {
    return base === null ? new URL(raw).href : new URL(raw, base).href;
  } catch {
    // A javascript: or template href names no address.
    return null;
  }
}

function fileExtension(url: string): string | null {
  try {
    const last = new URL(url).pathname.split('/').at(-1) ?? '';
    const dot = last.lastIndexOf('.');
    return dot <= 0 ? null : last.slice(dot + 1).toLowerCase();
  } catch {
    return null;
  }
}

function originOf(url: string | null): string | null {
  if (url === null) {
    return null;
  }
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

function numberParam(params: unknown, key: string): number | null {
  const value = fieldOf(params, key);
  return typeof value === 'number' ? value : null;
}

/** The risks of going to `url` (a navigation, a new tab, a link followed), most specific first. */
function addressRisks(url: string, facts: RiskFacts, how: string): RiskFinding[] {
  const found: RiskFinding[] = [];
  const extension = fileExtension(url);
  if (extension !== null && DOWNLOAD_EXTENSIONS.has(extension)) {
    found.push({ risk: 'download', reason: `${how} ${url}, a .${extension} file the browser downloads` });
  }
  const domain = registrableDomain(url);
  if (domain !== null && !facts.visitedDomains.has(domain)) {
    found.push({ risk: 'new_domain', reason: `${how} ${domain}, a domain this run has not been on (${url})` });
  }
  return found;
}

function clickRisks(params: unknown, facts: RiskFacts): RiskFinding[] {
  const index = numberParam(params, 'index');
  if (index === null) {
    return [];
  }
  const found: RiskFinding[] = [];
  const element = facts.elements.find((candidate) => candidate.index === index);
  const label = element === undefined ? `element ${index}` : `element ${index} (${element.tag} "${element.name}")`;
  const href = element?.attributes['href'];
  const target = href === undefined ? null : resolved(href, facts.pageUrl);
  if (facts.downloadIndexes.has(index)) {
    found.push({ risk: 'download', reason: `clicking ${label} downloads ${target ?? 'a file'}` });
  }
  const formTarget = facts.submitTargets.get(index);
  const pageOrigin = originOf(facts.pageUrl);
  const formOrigin = originOf(formTarget ?? null);
  if (formTarget !== undefined && formOrigin !== null && pageOrigin !== null && formOrigin !== pageOrigin) {
    found.push({
      risk: 'cross_origin_form',
      reason: `clicking ${label} sends the form to ${formOrigin}, another origin than the page's (${pageOrigin})`,
    });
  }
  if (target !== null) {
    found.push(...addressRisks(target, facts, `clicking ${label} goes to`));
  }
  return found;
}

/** Whether a send_keys sequence presses Enter (alone or in a chord): in a form's field, that submits it. */
export function pressesEnter(keys: string): boolean {
  return keys.split(/\s+/).some((key) => /(^|\+)enter$/i.test(key));
}

function enterRisks(params: unknown, facts: RiskFacts): RiskFinding[] {
  const keys = stringFieldOf(params, 'keys');
  const pageOrigin = originOf(facts.pageUrl);
  const formOrigin = originOf(facts.focusedFormTarget);
  if (
    keys === undefined ||
    !pressesEnter(keys) ||
    formOrigin === null ||
    pageOrigin === null ||
    formOrigin === pageOrigin
  ) {
    return [];
  }
  return [
    {
      risk: 'cross_origin_form',
      reason: `pressing Enter in the focused field sends its form to ${formOrigin}, another origin than the page's (${pageOrigin})`,
    },
  ];
}

function risksOf(action: ModelAction, facts: RiskFacts): RiskFinding[] {
  switch (declarationOf(action.name)?.risk) {
    case 'file_upload': {
      const path = stringFieldOf(action.params, 'path') ?? 'a file';
      const where = originOf(facts.pageUrl);
      return [
        { risk: 'upload', reason: `upload_file gives ${path} to the page${where === null ? '' : ` at ${where}`}` },
      ];
    }
    case 'page_script':
      return [{ risk: 'evaluate', reason: 'evaluate runs JavaScript the model wrote in the page' }];
    case 'goes_to_url': {
      const raw = stringFieldOf(action.params, 'url');
      if (raw === undefined) {
        return [];
      }
      const newTab = fieldOf(action.params, 'new_tab') === true;
      return addressRisks(navigationUrl(raw), facts, newTab ? 'a new tab on' : 'navigating to');
    }
    case 'search_results': {
      const query = stringFieldOf(action.params, 'query');
      const engine = stringFieldOf(action.params, 'engine') ?? 'duckduckgo';
      if (query === undefined || !isOneOf(SEARCH_ENGINES, engine)) {
        return [];
      }
      return addressRisks(searchUrl(engine, query), facts, 'searching on');
    }
    case 'clicked_element':
      return clickRisks(action.params, facts);
    case 'enter_key':
      return enterRisks(action.params, facts);
    case 'history_entry':
      return facts.historyTarget === null
        ? []
        : addressRisks(facts.historyTarget, facts, action.name === 'go_back' ? 'going back to' : 'going forward to');
    case undefined:
      return [];
  }
}

/**
 * The first risk of `action` among the classes `risky` names, or null when it may run without asking.
 * Judged before the action runs, from the state it was chosen on: what only the response would tell
 * (a server answering a plain link with a download, a redirect to another domain) is not known here.
 */
export function classifyRisk(action: ModelAction, facts: RiskFacts, risky: readonly AgentRisk[]): RiskFinding | null {
  return risksOf(action, facts).find((finding) => risky.includes(finding.risk)) ?? null;
}
