/**
 * Addresses and names that lead into the person's machine or network rather than the internet: what
 * block_ip_addresses refuses when a host name resolves to one (a router's admin page, an intranet host, a
 * service on localhost), whatever the name (`*.nip.io`, a rebinding name, `*.localhost`).
 */

/** IPv4 ranges as [first octets, prefix length]: loopback, private, link-local, CGNAT, "this network". */
const PRIVATE_V4: ReadonlyArray<readonly [number, number, number]> = [
  [127, 0, 8],
  [10, 0, 8],
  [172, 16, 12],
  [192, 168, 16],
  [169, 254, 16],
  [100, 64, 10],
  [0, 0, 8],
];

function v4Private(address: string): boolean {
  const parts = address.split('.').map(Number);
  if (parts.length !== 4 || parts.some((part) => !Number.isInteger(part) || part < 0 || part > 255)) {
    return false;
  }
  const value = ((parts[0] ?? 0) << 24) | ((parts[1] ?? 0) << 16);
  return PRIVATE_V4.some(([a, b, prefix]) => {
    const mask = prefix === 0 ? 0 : (~0 << (32 - prefix)) & ~0;
    return (value & mask) === (((a << 24) | (b << 16)) & mask);
  });
}

/** Whether an address (IPv4 dotted, or IPv6 with or without brackets) is loopback, private or link-local. */
export function isPrivateAddress(address: string): boolean {
  const text = address.toLowerCase().replace(/^\[|\]$/g, '');
  if (!text.includes(':')) {
    return v4Private(text);
  }
  // IPv4-mapped (::ffff:10.0.0.1) and its hex form are judged as the IPv4 address they carry.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (mapped?.[1] !== undefined) {
    return v4Private(mapped[1]);
  }
  const hexMapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(text);
  if (hexMapped?.[1] !== undefined && hexMapped[2] !== undefined) {
    const high = parseInt(hexMapped[1], 16);
    const low = parseInt(hexMapped[2], 16);
    return v4Private(`${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`);
  }
  if (text === '::1' || text === '::') {
    return true;
  }
  // fc00::/7 (unique local), fe80::/10 (link-local).
  return /^f[cd][0-9a-f]{0,2}:/.test(text) || /^fe[89ab][0-9a-f]?:/.test(text);
}

/** Names Chromium answers with loopback itself, never asking DNS: localhost and every *.localhost. */
export function isLoopbackName(host: string): boolean {
  return host === 'localhost' || host.endsWith('.localhost');
}
