/**
 * The globals that both platforms (a Chrome service worker and Node 22) provide and that core layers
 * (shared .. actor) may use. Core compiles against ES2023 plus this file only, so `chrome`, `process`,
 * `Buffer`, `window` and `document` are compile errors there.
 */
type TimerHandle = { readonly __timerBrand?: never } | number;

declare function setTimeout(callback: () => void, ms?: number): TimerHandle;
declare function clearTimeout(handle: TimerHandle | undefined): void;
declare function setInterval(callback: () => void, ms?: number): TimerHandle;
declare function clearInterval(handle: TimerHandle | undefined): void;
declare function queueMicrotask(callback: () => void): void;
declare function structuredClone<T>(value: T): T;
declare function atob(data: string): string;
declare function btoa(data: string): string;

interface Console {
  debug(...data: unknown[]): void;
  info(...data: unknown[]): void;
  warn(...data: unknown[]): void;
  error(...data: unknown[]): void;
  log(...data: unknown[]): void;
}
declare const console: Console;

interface Event {
  readonly type: string;
}
interface EventListenerOptions {
  once?: boolean;
  signal?: AbortSignal;
}
interface AbortSignal {
  readonly aborted: boolean;
  readonly reason: unknown;
  throwIfAborted(): void;
  addEventListener(type: 'abort', listener: (event: Event) => void, options?: EventListenerOptions): void;
  removeEventListener(type: 'abort', listener: (event: Event) => void): void;
}
declare const AbortSignal: {
  prototype: AbortSignal;
  abort(reason?: unknown): AbortSignal;
  timeout(ms: number): AbortSignal;
  any(signals: AbortSignal[]): AbortSignal;
};
interface AbortController {
  readonly signal: AbortSignal;
  abort(reason?: unknown): void;
}
declare const AbortController: { prototype: AbortController; new (): AbortController };

interface URLSearchParams {
  get(name: string): string | null;
  set(name: string, value: string): void;
  has(name: string): boolean;
  toString(): string;
}
interface URL {
  hash: string;
  host: string;
  hostname: string;
  href: string;
  readonly origin: string;
  password: string;
  pathname: string;
  port: string;
  protocol: string;
  search: string;
  readonly searchParams: URLSearchParams;
  username: string;
  toString(): string;
}
declare const URL: { prototype: URL; new (url: string, base?: string | URL): URL };

interface TextEncoder {
  encode(input?: string): Uint8Array;
}
declare const TextEncoder: { prototype: TextEncoder; new (): TextEncoder };
interface TextDecoder {
  decode(input?: Uint8Array): string;
}
declare const TextDecoder: {
  prototype: TextDecoder;
  new (label?: string, options?: { fatal?: boolean }): TextDecoder;
};

interface Performance {
  now(): number;
}
declare const performance: Performance;

interface SubtleCrypto {
  digest(algorithm: 'SHA-1' | 'SHA-256', data: Uint8Array<ArrayBuffer>): Promise<ArrayBuffer>;
}
interface Crypto {
  readonly subtle: SubtleCrypto;
  getRandomValues<T extends Uint8Array | Uint32Array>(array: T): T;
  randomUUID(): string;
}
declare const crypto: Crypto;
