import { join } from 'node:path';
import { inject } from 'vitest';
import type { BuildTarget } from './build-service.js';

/** The folder this run's build service built `target` into (built on the first ask). */
async function builtFolder(target: BuildTarget): Promise<string> {
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
  return [join(await builtFolder('node'), 'cli', 'parley.js')];
}

/** `node` arguments that run the SDK's Node driver (test/e2e/sdk/node-user.ts), built once for the run. */
export async function sdkNodeUserCommand(): Promise<string[]> {
  return [join(await builtFolder('node'), 'sdk-node-user.js')];
}

/** The desktop window as `npm run build` builds it (`<folder>/index.html`), built once for the run. */
export async function builtWindow(): Promise<string> {
  return join(await builtFolder('window'), 'desktop', 'renderer');
}
