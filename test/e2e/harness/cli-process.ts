import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { CommandResponse } from '../../../src/protocol/commands';
import { pollUntil } from '../../../src/shared/time';

export const BIN = resolve(import.meta.dirname, '../../../bin/tabpilot.mjs');

/** The tabpilot CLI as a user runs it: JSON lines on stdin and stdout, logs on stderr. */
export class CliProcess {
  readonly child: ChildProcessWithoutNullStreams;
  readonly responses: CommandResponse[] = [];
  stderr = '';

  constructor(args: string[]) {
    this.child = spawn(process.execPath, [BIN, ...args], { stdio: 'pipe' });
    createInterface({ input: this.child.stdout }).on('line', (line) =>
      this.responses.push(JSON.parse(line) as CommandResponse),
    );
    this.child.stderr.on('data', (chunk: Buffer) => {
      this.stderr += chunk.toString();
    });
  }

  write(line: string): void {
    this.child.stdin.write(`${line}\n`);
  }

  async request(id: number, action: string, params: Record<string, unknown> = {}): Promise<CommandResponse> {
    this.write(JSON.stringify({ id, action, params }));
    return this.response(id);
  }

  response(id: number | null): Promise<CommandResponse> {
    return pollUntil(() => this.responses.find((response) => response.id === id), {
      timeoutMs: 30_000,
      intervalMs: 20,
      onTimeout: () => new Error(`no response ${id}; stderr:\n${this.stderr}`),
    });
  }

  async end(): Promise<number | null> {
    const exited = new Promise<number | null>((done) => this.child.once('exit', (code) => done(code)));
    this.child.stdin.end();
    return exited;
  }
}
