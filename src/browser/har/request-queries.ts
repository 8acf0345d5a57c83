import type { PayloadOf } from '../../protocol/define-event';
import type { NetworkRequestEvent, NetworkRequestsEvent } from '../../protocol/actions/content.actions';
import { TabpilotError } from '../../shared/errors';
import type { BrowserSessionView } from '../session-view';
import { harSecrets } from './har-secrets';
import { requestDetail } from './request-detail';
import { lineOf, type RequestLog } from './request-log';

/**
 * network_requests and network_request: a tab's requests since its page loaded, listed, and one of them
 * in detail, its headers and text redacted as in the HAR.
 */
export class RequestQueries {
  readonly #session: BrowserSessionView;
  readonly #requests: RequestLog;

  constructor(session: BrowserSessionView, requests: RequestLog) {
    this.#session = session;
    this.#requests = requests;
  }

  list(payload: PayloadOf<typeof NetworkRequestsEvent>) {
    const { target_id, url_contains, resource_types, only_failed, max_results } = payload;
    this.#session.targets.requireSession(target_id);
    return this.#requests.list(target_id, {
      urlContains: url_contains,
      resourceTypes: resource_types,
      onlyFailed: only_failed,
      max: max_results,
    });
  }

  async detail(payload: PayloadOf<typeof NetworkRequestEvent>) {
    const session = this.#session;
    const { target_id, request_id, to_file, max_body_chars } = payload;
    session.targets.requireSession(target_id);
    const request = this.#requests.request(target_id, request_id);
    if (request === undefined) {
      throw new TabpilotError(
        'ELEMENT_NOT_FOUND',
        `No request ${request_id} in this tab's page: network_requests lists the ones kept since it loaded`,
      );
    }
    const secrets = harSecrets(() => session.config.sensitive_data);
    const detail = await requestDetail(request, {
      redactHeaders: session.config.record_har_redact_headers,
      redactText: (text) => secrets.value(text),
      maxBodyChars: max_body_chars,
      toFile: to_file
        ? { files: session.host.files, baseName: `request-${request_id.replace(/\W/g, '-')}` }
        : undefined,
    });
    return { ...lineOf(request), ...detail };
  }

  forget(targetId: string): void {
    this.#requests.forget(targetId);
  }
}
