import { describe, expect, it } from 'vitest';
import { isLoopbackName, isPrivateAddress } from './private-address';

describe('isPrivateAddress', () => {
  it('knows loopback, private, link-local and CGNAT IPv4 from public addresses', () => {
    for (const address of [
      '127.0.0.1',
      '127.255.0.9',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
    ]) {
      expect(isPrivateAddress(address), address).toBe(true);
    }
    for (const address of ['8.8.8.8', '172.32.0.1', '172.15.255.255', '192.169.0.1', '100.128.0.1', '11.0.0.1']) {
      expect(isPrivateAddress(address), address).toBe(false);
    }
  });

  it('knows IPv6 loopback, unique-local, link-local and IPv4-mapped addresses', () => {
    for (const address of [
      '::1',
      '[::1]',
      '::',
      'fd00::1',
      'fc12:3456::1',
      'fe80::1',
      '::ffff:10.0.0.1',
      '::ffff:7f00:1',
    ]) {
      expect(isPrivateAddress(address), address).toBe(true);
    }
    for (const address of ['2001:4860:4860::8888', '::ffff:8.8.8.8', 'ff02::1']) {
      expect(isPrivateAddress(address), address).toBe(false);
    }
  });
});

describe('isLoopbackName', () => {
  it('is localhost and its subdomains only', () => {
    expect(isLoopbackName('localhost')).toBe(true);
    expect(isLoopbackName('app.localhost')).toBe(true);
    expect(isLoopbackName('localhost.example')).toBe(false);
    expect(isLoopbackName('notlocalhost')).toBe(false);
  });
});
