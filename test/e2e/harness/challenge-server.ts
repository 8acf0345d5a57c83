import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import selfsigned from 'selfsigned';

/** The vendors' real hosts; the test browser resolves them to this loopback server. */
export const CHALLENGE_HOSTS = ['www.google.com', 'newassets.hcaptcha.com', 'challenges.cloudflare.com'] as const;

/** Flags that send the vendors' hosts to loopback and accept this server's self-made certificate. */
export function challengeFlags(): string[] {
  return [
    `--host-resolver-rules=${CHALLENGE_HOSTS.map((host) => `MAP ${host} 127.0.0.1`).join(', ')}`,
    '--ignore-certificate-errors',
  ];
}

function frame(title: string, body: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body style="margin:0">${body}</body></html>`;
}

/**
 * The challenge widgets' own frames, served over HTTPS on loopback at their real paths (reCAPTCHA's
 * anchor and bframe, hCaptcha's hcaptcha.html, Turnstile's challenge-platform iframe).
 */
export class ChallengeServer {
  #server: Server | undefined;
  #port = 0;

  async start(): Promise<void> {
    const pems = await selfsigned.generate([{ name: 'commonName', value: 'challenge.test' }], { keyType: 'ec' });
    this.#server = createServer({ key: pems.private, cert: pems.cert }, (req, res) => {
      const path = new URL(req.url ?? '/', 'https://x').pathname;
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      if (path.startsWith('/recaptcha/api2/anchor')) {
        res.end(
          frame('reCAPTCHA', `<div role="checkbox" id="recaptcha-anchor" aria-checked="false">I'm not a robot</div>`),
        );
      } else if (path.endsWith('/static/hcaptcha.html')) {
        res.end(frame('hCaptcha', `<div id="checkbox" role="checkbox" aria-checked="false">I am human</div>`));
      } else if (path.startsWith('/cdn-cgi/challenge-platform/')) {
        res.end(frame('Turnstile', `<label><input type="checkbox"> Verify you are human</label>`));
      } else {
        res.end(frame('Not a widget', ''));
      }
    });
    await new Promise<void>((resolve) => this.#server?.listen(0, '127.0.0.1', resolve));
    this.#port = (this.#server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    this.#server?.closeAllConnections();
    await new Promise<void>((resolve) =>
      this.#server === undefined ? resolve() : this.#server.close(() => resolve()),
    );
  }

  /** A URL on a vendor host, at this server's port. */
  url(host: (typeof CHALLENGE_HOSTS)[number], pathAndQuery: string): string {
    return `https://${host}:${this.#port}${pathAndQuery}`;
  }
}
