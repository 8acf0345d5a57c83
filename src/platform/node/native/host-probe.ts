import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXTENSION_ORIGIN, HostToWorker } from '../../../protocol/native-messages';
import { FrameDecoder } from './frame-codec';

export type ProbeOutcome =
  | { ok: true; pid: number; version: string; exitCode: number | null }
  | { ok: false; reason: string; stderr: string; exitCode: number | null };

const PROBE_TIMEOUT_MS = 15_000;

/**
 * Starts the host the way Chrome does (the manifest's path, our origin as its argument) and waits
 * for its hello frame, then closes its stdin and waits for a clean exit. It runs with its own state
 * folder and TABPILOT_HOST_PROBE set, so it publishes no discovery record a client could pick up.
 */
export async function probeHost(launcherPath: string, env: NodeJS.ProcessEnv = process.env): Promise<ProbeOutcome> {
  const state = mkdtempSync(join(tmpdir(), 'tabpilot-probe-'));
  try {
    return await new Promise<ProbeOutcome>((resolve) => {
      const child = spawn(launcherPath, [EXTENSION_ORIGIN], {
        env: { ...env, TABPILOT_STATE_DIR: state, TABPILOT_HOST_PROBE: '1' },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let stderr = '';
      let hello: { pid: number; version: string } | undefined;
      const decoder = new FrameDecoder(1024 * 1024);
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        resolve({ ok: false, reason: `no hello frame within ${PROBE_TIMEOUT_MS} ms`, stderr, exitCode: null });
      }, PROBE_TIMEOUT_MS);
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      child.stdout.on('data', (chunk: Buffer) => {
        for (const frame of decoder.push(chunk)) {
          if (frame.kind !== 'frame') {
            continue;
          }
          const parsed = HostToWorker.safeParse(parseJson(frame.text));
          if (parsed.success && parsed.data.type === 'hello' && hello === undefined) {
            hello = { pid: parsed.data.host.pid, version: parsed.data.host.version };
            child.stdin.end();
          }
        }
      });
      child.once('error', (error) => {
        clearTimeout(timer);
        resolve({ ok: false, reason: `cannot start it: ${error.message}`, stderr, exitCode: null });
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        if (hello === undefined) {
          resolve({ ok: false, reason: `it exited (code ${code}) before saying hello`, stderr, exitCode: code });
        } else if (code !== 0) {
          resolve({
            ok: false,
            reason: `it said hello but exited with code ${code} on stdin EOF`,
            stderr,
            exitCode: code,
          });
        } else {
          resolve({ ok: true, ...hello, exitCode: code });
        }
      });
    });
  } finally {
    rmSync(state, { recursive: true, force: true });
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    // Not JSON: it does not parse as a hello either, which is what the probe reports.
    return undefined;
  }
}
