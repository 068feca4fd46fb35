import { join } from 'node:path';
import { inject } from 'vitest';
import type { BuildTarget } from './build-service.js';

/** What this run's build service built for `target` (on the first ask): its folder, or the database's name. */
async function built(target: BuildTarget): Promise<string> {
  const response = await fetch(`${inject('buildService')}/${target}`);
  const text = await response.text();
  if (response.status !== 200) throw new Error(`building ${target} for the tests failed: ${text}`);
  return text;
}

/**
 * `node` arguments that run the `parley` command, transpiled as `npm run build` does, built once
 * for the whole run: starting it costs about half the CPU of `--import tsx cli/parley.ts`.
 */
export async function parleyCommand(): Promise<string[]> {
  return [join(await built('node'), 'cli', 'parley.js')];
}

/** `node` arguments that run the SDK's Node driver (test/e2e/sdk/node-user.ts), built once for the run. */
export async function sdkNodeUserCommand(): Promise<string[]> {
  return [join(await built('node'), 'sdk-node-user.js')];
}

/** The desktop window as `npm run build` builds it (`<folder>/index.html`), built once for the run. */
export async function builtWindow(): Promise<string> {
  return join(await built('window'), 'desktop', 'renderer');
}

/** The name of a PostgreSQL database with every migration of the chat store run, built once for the run. */
export function migratedTemplate(): Promise<string> {
  return built('postgres');
}
