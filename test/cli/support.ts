import { spawn } from 'node:child_process';
import { parleyCommand } from '../support/built.js';

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `parley`, as built for this run, with stdout and stderr not a terminal. */
export async function runParley(args: string[], options: { input?: string } = {}): Promise<CliRun> {
  const child = spawn(process.execPath, [...(await parleyCommand()), ...args], {
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (data: Buffer) => (stdout += data.toString()));
  child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
  child.stdin.end(options.input ?? '');
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  return { code, stdout, stderr };
}
