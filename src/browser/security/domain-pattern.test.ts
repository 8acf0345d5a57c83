import { describe, expect, it } from 'vitest';
import { parseBrowserConfig } from '../config';
import { DomainList, parseDomainPattern, type DomainPattern } from './domain-pattern';

function pattern(source: string): DomainPattern {
  const parsed = parseDomainPattern(source);
  if (!parsed.ok) {
    throw new Error(parsed.error);
  }
  return parsed.pattern;
}

describe('domain patterns', () => {
  it('reads each form', () => {
    expect(pattern('Example.COM')).toMatchObject({ kind: 'host', host: 'example.com', withWww: true });
    expect(pattern('example.co.uk')).toMatchObject({ kind: 'host', withWww: false });
    expect(pattern('sub.example.com')).toMatchObject({ kind: 'host', withWww: false });
    expect(pattern('bücher.de')).toMatchObject({ kind: 'host', host: 'xn--bcher-kva.de' });
    expect(pattern('example.com.')).toMatchObject({ kind: 'host', host: 'example.com' });
    expect(pattern('*.example.com')).toMatchObject({ kind: 'subdomains', base: 'example.com' });
    expect(pattern('https://example.com/app')).toMatchObject({
      kind: 'url',
      protocol: 'https:',
      host: 'example.com',
      port: '',
      path: '/app',
    });
    expect(pattern('http://example.com:8080')).toMatchObject({ kind: 'url', port: '8080', path: '/' });
    expect(pattern('http*://example.com')).toMatchObject({ kind: 'glob', against: 'origin' });
    expect(pattern('chrome-extension://*/*')).toMatchObject({ kind: 'glob', against: 'url' });
    expect(pattern('*.example.*')).toMatchObject({ kind: 'glob', against: 'host' });
    expect(pattern('*')).toMatchObject({ kind: 'glob', against: 'host' });
  });

  it('refuses malformed patterns and says why', () => {
    const malformed: Array<[string, RegExp]> = [
      ['', /empty/],
      [' example.com', /white space/],
      ['exa mple.com', /white space/],
      ['example.com/path', /needs its scheme/],
      ['example.com:8080', /needs its scheme/],
      ['user@example.com', /needs its scheme/],
      ['example..com', /not a host name/],
      ['*.', /not a host name/],
      ['*.exa mple.com', /white space/],
      ['a.*..com', /empty label/],
      ['*.ex^ample.com', /not a host name/],
      ['foo*bar!.com', /not a host label/],
      ['https://', /not a URL/],
      ['https://example.com/?q=1', /scheme, a host/],
      ['1http://example.com', /not a URL scheme/],
      ['http://exa mple.com', /white space/],
      ['[::1', /not a host name/],
    ];
    for (const [source, message] of malformed) {
      const parsed = parseDomainPattern(source);
      expect(parsed.ok, source).toBe(false);
      if (!parsed.ok) {
        expect(parsed.error, source).toMatch(message);
      }
    }
  });

  it('finds exact names and *.domain bases by lookup, whatever the list length', () => {
    const list = new DomainList([
      ...Array.from({ length: 5000 }, (_, i) => pattern(`host-${i}.example`)),
      pattern('*.deep.example'),
      pattern('https://x.example/app'),
    ]);
    const at = (href: string): string | undefined => {
      const url = new URL(href);
      return list.match(url, url.hostname);
    };
    expect(at('http://host-4999.example/')).toBe('host-4999.example');
    expect(at('http://www.host-1.example/')).toBe('host-1.example');
    expect(at('http://a.b.c.deep.example/')).toBe('*.deep.example');
    expect(at('https://x.example/app/y')).toBe('https://x.example/app');
    expect(at('http://host-5000.example/')).toBeUndefined();
  });
});

describe('the security config', () => {
  it('refuses a malformed pattern at start, naming the field and the entry', () => {
    expect(() => parseBrowserConfig({ allowed_domains: ['ok.example', 'bad.example/path'] })).toThrow(
      /field allowed_domains\.1: malformed domain pattern/,
    );
    expect(() => parseBrowserConfig({ prohibited_domains: ['exa mple.com'] })).toThrow(/field prohibited_domains\.0/);
  });

  it('refuses javascript in allowed_schemes and takes schemes with or without their colon', () => {
    expect(() => parseBrowserConfig({ allowed_schemes: ['javascript'] })).toThrow(/allowed_schemes\.0: javascript/);
    expect(() => parseBrowserConfig({ allowed_schemes: ['JavaScript:'] })).toThrow(/allowed_schemes\.0/);
    expect(() => parseBrowserConfig({ allowed_schemes: ['not a scheme'] })).toThrow(/allowed_schemes\.0/);
    expect(parseBrowserConfig({ allowed_schemes: ['File:', 'chrome'] }).allowed_schemes).toEqual(['file', 'chrome']);
  });

  it('refuses an unknown permission, naming the field and the known ones', () => {
    expect(() => parseBrowserConfig({ permissions: ['clipboardReadWrite', 'clipboard'] })).toThrow(
      /field permissions\.1: unknown permission "clipboard" \(known: ar, audioCapture/,
    );
    expect(parseBrowserConfig({ permissions: ['geolocation'] }).permissions).toEqual(['geolocation']);
  });

  it('refuses a wrong type, naming the field', () => {
    expect(() => parseBrowserConfig({ block_ip_addresses: 'yes' })).toThrow(/field block_ip_addresses/);
    expect(() => parseBrowserConfig({ allowed_domains: 'example.com' })).toThrow(/field allowed_domains/);
  });
});
