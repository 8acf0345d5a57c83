import { lookup } from 'node:dns/promises';
import type { HostResolver } from '../../browser/host';

/**
 * The machine's resolver (getaddrinfo, as most programs and, without its own DNS client, Chromium use),
 * asked at each request: every address, so a name with one private answer among public ones is caught,
 * and never cached here, so a name that rebinds to a private address between two requests is caught too.
 */
export const systemResolver: HostResolver = {
  async addresses(hostname) {
    const answers = await lookup(hostname, { all: true, verbatim: true });
    return answers.map((answer) => answer.address);
  },
};
