import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseVersion, readEnginesRange, satisfiesEngines } from '../../scripts/node-range.mjs';

const PACKAGE_JSON = fileURLToPath(new URL('../../package.json', import.meta.url));

describe('satisfiesEngines', () => {
  it('reads the ranges dependencies declare the way npm does', () => {
    // vite 8 and rolldown
    const vite = '^20.19.0 || >=22.12.0';
    expect(satisfiesEngines('20.18.3', vite)).toBe(false);
    expect(satisfiesEngines('20.19.0', vite)).toBe(true);
    expect(satisfiesEngines('21.7.3', vite)).toBe(false);
    expect(satisfiesEngines('22.11.0', vite)).toBe(false);
    expect(satisfiesEngines('22.12.0', vite)).toBe(true);
    expect(satisfiesEngines('26.1.0', vite)).toBe(true);
    // vitest 4: no Node 23
    const vitest = '^20.0.0 || ^22.0.0 || >=24.0.0';
    expect(satisfiesEngines('23.11.1', vitest)).toBe(false);
    expect(satisfiesEngines('22.0.0', vitest)).toBe(true);
    // ai and @ai-sdk/*
    expect(satisfiesEngines('20.20.2', '>=22')).toBe(false);
    expect(satisfiesEngines('22.0.0', '>=22')).toBe(true);
    // minimatch, brace-expansion: bare majors
    expect(satisfiesEngines('21.0.0', '20 || >=22')).toBe(false);
    expect(satisfiesEngines('20.5.1', '20 || >=22')).toBe(true);
    // eslint-visitor-keys 5
    expect(satisfiesEngines('22.12.0', '^20.19.0 || ^22.13.0 || >=24')).toBe(false);
    expect(satisfiesEngines('22.13.0', '^20.19.0 || ^22.13.0 || >=24')).toBe(true);
  });

  it('takes a v prefix, a space after an operator, and a space as "and"', () => {
    expect(satisfiesEngines('v22.13.0', '>= 22.13.0')).toBe(true);
    expect(satisfiesEngines('22.13.0', '>=22 <22.13')).toBe(false);
    expect(satisfiesEngines('22.12.9', '>=22 <22.13')).toBe(true);
  });

  it('places the bounds of partial versions, tildes and carets', () => {
    expect(satisfiesEngines('22.99.0', '<=22')).toBe(true);
    expect(satisfiesEngines('23.0.0', '<=22')).toBe(false);
    expect(satisfiesEngines('22.99.0', '>22')).toBe(false);
    expect(satisfiesEngines('23.0.0', '>22')).toBe(true);
    expect(satisfiesEngines('22.13.9', '~22.13.1')).toBe(true);
    expect(satisfiesEngines('22.14.0', '~22.13.1')).toBe(false);
    expect(satisfiesEngines('22.13.0', '~22.13.1')).toBe(false);
    expect(satisfiesEngines('22.5.0', '~22')).toBe(true);
    expect(satisfiesEngines('0.2.9', '^0.2.3')).toBe(true);
    expect(satisfiesEngines('0.3.0', '^0.2.3')).toBe(false);
    expect(satisfiesEngines('0.0.4', '^0.0.3')).toBe(false);
    expect(satisfiesEngines('22.13.0', '=22.13.0')).toBe(true);
    expect(satisfiesEngines('22.13.1', '22.13.0')).toBe(false);
    expect(satisfiesEngines('22.13.1', '22.13')).toBe(true);
  });

  it('throws on what it cannot read rather than letting it pass', () => {
    expect(() => satisfiesEngines('22.0.0', '22.x')).toThrow(/cannot read/);
    expect(() => satisfiesEngines('22.0.0', '>=22 || ')).toThrow(/cannot read/);
    expect(() => satisfiesEngines('22.0.0', '>=22 || lts')).toThrow(/cannot read/);
    expect(() => satisfiesEngines('22.0.0', '>=22 - 24')).toThrow(/cannot read/);
    expect(() => satisfiesEngines('24.0.0-pre', '>=22')).toThrow(/not a Node version/);
    expect(parseVersion('v22.23.3')).toEqual([22, 23, 3]);
  });
});

describe("the repository's engines range", () => {
  it('is read from package.json and admits Node 22 LTS from 22.13 on, not the Node 20 it replaced', () => {
    const range = readEnginesRange(PACKAGE_JSON);
    expect(satisfiesEngines('22.13.0', range)).toBe(true);
    expect(satisfiesEngines('22.12.0', range)).toBe(false);
    expect(satisfiesEngines('20.20.2', range)).toBe(false);
    expect(satisfiesEngines('24.0.0', range)).toBe(true);
  });
});
