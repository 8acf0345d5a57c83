import { describe, expect, it } from 'vitest';
import type { CdpSession } from '../../cdp/session';
import { bytesToBase64, utf8 } from '../../shared/bytes';
import { requestDetail, type DetailOptions } from './request-detail';
import type { KeptRequest } from './request-log';

/** A session that answers the two body commands from what it is given, and fails any other. */
function bodies(answers: { post?: string; body?: { body: string; base64Encoded: boolean } | Error }): CdpSession {
  const send = (method: string): Promise<unknown> => {
    if (method === 'Network.getRequestPostData' && answers.post !== undefined) {
      return Promise.resolve({ postData: answers.post });
    }
    if (method === 'Network.getResponseBody' && answers.body !== undefined) {
      return answers.body instanceof Error ? Promise.reject(answers.body) : Promise.resolve(answers.body);
    }
    return Promise.reject(new Error(`unexpected ${method}`));
  };
  return { send } as unknown as CdpSession;
}

function kept(session: CdpSession, extra: Partial<KeptRequest> = {}): KeptRequest {
  return {
    id: '7',
    url: 'http://a.test/api',
    method: 'POST',
    resource_type: 'Fetch',
    status: 200,
    mime_type: 'application/json',
    failure: null,
    failed: false,
    started_ms: 5,
    duration_ms: 12,
    encoded_bytes: 40,
    from_cache: false,
    startSeconds: 1,
    session,
    cdpRequestId: '7',
    requestHeaders: { 'Content-Type': 'application/json', Authorization: 'Bearer abc', 'X-Key': 'hunter2-key' },
    responseHeaders: { 'content-type': 'application/json', 'Set-Cookie': 'sid=1' },
    hasPostData: true,
    redirected: false,
    ...extra,
  };
}

const OPTIONS: DetailOptions = {
  // Cookies and authorization are replaced even when the config's list leaves them out.
  redactHeaders: ['x-other'],
  redactText: (text) => text.replaceAll('hunter2', '<secret>pw</secret>'),
  maxBodyChars: 20,
  toFile: undefined,
};

describe('requestDetail', () => {
  it('replaces the named headers and the secrets, and cuts a text body at the bound', async () => {
    const session = bodies({
      post: '{"password":"hunter2"}',
      body: { body: '{"items":[1,2,3,4,5,6,7,8,9]}', base64Encoded: false },
    });
    const detail = await requestDetail(kept(session), OPTIONS);
    expect(detail.request_headers).toEqual([
      { name: 'Content-Type', value: 'application/json' },
      { name: 'Authorization', value: '<redacted>' },
      { name: 'X-Key', value: '<secret>pw</secret>-key' },
    ]);
    expect(detail.response_headers).toContainEqual({ name: 'Set-Cookie', value: '<redacted>' });
    expect(detail.request_body).toMatchObject({ text: '{"password":"<secret', truncated: true, missing: null });
    expect(detail.response_body).toMatchObject({ text: '{"items":[1,2,3,4,5,', truncated: true, bytes: 29 });
  });

  it('writes the bodies to files with the secrets replaced, a binary one too', async () => {
    const saved: Array<{ name: string; text: string }> = [];
    const files = {
      save: (name: string, base64: string) => {
        saved.push({ name, text: Buffer.from(base64, 'base64').toString('utf8') });
        return Promise.resolve(`/out/${name}`);
      },
    };
    const png = bytesToBase64(utf8('PNG-bytes'));
    const session = bodies({ post: 'pw=hunter2', body: { body: png, base64Encoded: true } });
    const detail = await requestDetail(
      kept(session, {
        mime_type: 'image/png',
        requestHeaders: { 'content-type': 'application/x-www-form-urlencoded' },
      }),
      { ...OPTIONS, toFile: { files, baseName: 'request-7' } },
    );
    expect(saved).toEqual([
      { name: 'request-7-request.dat', text: 'pw=<secret>pw</secret>' },
      { name: 'request-7-response.png', text: 'PNG-bytes' },
    ]);
    expect(detail.response_body).toEqual({
      bytes: 9,
      text: null,
      truncated: false,
      path: '/out/request-7-response.png',
      missing: null,
    });
  });

  it('says why a body is missing: binary without to_file, evicted, still coming, a redirect hop', async () => {
    const binary = await requestDetail(
      kept(bodies({ body: { body: 'AAAA', base64Encoded: true } }), { mime_type: 'image/png', hasPostData: false }),
      OPTIONS,
    );
    expect(binary.request_body).toBeNull();
    expect(binary.response_body?.missing).toMatch(/^binary/);
    const evicted = await requestDetail(
      kept(bodies({ body: new Error('No resource with given identifier found') }), { hasPostData: false }),
      OPTIONS,
    );
    expect(evicted.response_body?.missing).toMatch(/no longer holds it/);
    const open = await requestDetail(kept(bodies({}), { hasPostData: false, duration_ms: null }), OPTIONS);
    expect(open.response_body?.missing).toMatch(/^still coming/);
    const hop = await requestDetail(kept(bodies({}), { hasPostData: false, redirected: true }), OPTIONS);
    expect(hop.response_body).toBeNull();
  });
});
