import { z } from 'zod';
import { parseDomainPattern } from './domain-pattern';

const PATTERN_FORMS =
  '"example.com" (that host, and www.example.com for a root domain), "*.example.com" (example.com and every subdomain), "https://example.com/path" (that scheme, host, optional port and the paths under it), or another * glob matched against the host ("*.example.*"), or against scheme://host when it has :// ("http*://example.com")';

const DomainPatterns = z.array(z.string()).superRefine((patterns, ctx) => {
  patterns.forEach((pattern, index) => {
    const parsed = parseDomainPattern(pattern);
    if (!parsed.ok) {
      ctx.addIssue({ code: 'custom', path: [index], message: `malformed domain pattern: ${parsed.error}` });
    }
  });
});

const SchemeName = z
  .string()
  .transform((value) => value.toLowerCase().replace(/:$/, ''))
  .pipe(
    z
      .string()
      .regex(/^[a-z][a-z0-9+.-]*$/, 'a URL scheme such as file or chrome-extension')
      .refine((scheme) => scheme !== 'javascript', 'javascript: is never allowed (navigate would run it in the page)'),
  );

/**
 * The URL policy: which pages controlled tabs may load and reach. It is enforced before any request
 * leaves, for every request of a controlled tab (navigate, links, scripts, redirects, forms, frames, and
 * subresources: images, fetch, beacons, workers' requests), and only the person (the panel's settings) or
 * the Node config file may change it.
 */
export const SECURITY_CONFIG = {
  allowed_domains: DomainPatterns.default([]).describe(
    `When not empty, controlled tabs load only pages on these hosts, and their pages reach only these hosts (images, scripts, fetch, beacons, workers, WebSockets in the extension); everything else is blocked before the request leaves. Each entry is ${PATTERN_FORMS}. Exact names are a hash lookup, so long lists cost nothing.`,
  ),
  prohibited_domains: DomainPatterns.default([]).describe(
    `Pages controlled tabs never load, in the same forms as allowed_domains: ${PATTERN_FORMS}. Applies even when allowed_domains is set (browser-use ignores it then), so "*.example.com" allowed with "mail.example.com" prohibited leaves the mail site out.`,
  ),
  block_ip_addresses: z
    .boolean()
    .default(false)
    .describe(
      'Block requests addressed by an IP literal (IPv4 or IPv6, in any spelling the browser accepts: 2130706433, 0x7f.1, 127.1, [::ffff:127.0.0.1], full-width digits, ...), the way to reach a router or an intranet host by number, and to localhost and *.localhost. In Node also to any host name that resolves to a loopback, private or link-local address, resolved at each request (a rebinding name is caught); the extension has no DNS API. Checked before the domain lists, so an allowed_domains entry does not lift it.',
    ),
  allowed_schemes: z
    .array(SchemeName)
    .default([])
    .describe(
      'URL schemes controlled tabs may load besides http and https (always allowed) and about:blank, data: and blob: (always allowed): for example file, chrome, chrome-extension, devtools, view-source. Every other scheme is blocked; javascript: always is. In the extension, chrome:// pages, the Web Store and other extensions stay out of reach whatever this says: Chrome does not let an extension control them.',
    ),
} as const;
