import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import type { TestProject } from 'vitest/node';
import { desktopBundles } from '../../desktop/bundles.js';
import { buildNodeCode } from '../../scripts/node-build.js';

/** What the tests can ask to have built: the Node code (with the SDK's Node driver) or the desktop window. */
export type BuildTarget = 'node' | 'window';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The URL of this run's build service (test/support/built.ts asks it). */
    buildService: string;
  }
}

/**
 * vitest's globalSetup: builds what the test files would otherwise each build again, once per run
 * and only when a file first asks for it. A file asks over loopback HTTP (`GET /node`,
 * `GET /window`) and gets the folder once the build is done; every later asker gets the same
 * folder. The build goes inside the repository (test/.artifacts/build-…) so that built code
 * resolves the project's node_modules, and is removed when the run ends.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const artifacts = resolve('test/.artifacts');
  await mkdir(artifacts, { recursive: true });
  const root = await mkdtemp(join(artifacts, 'build-'));
  const builders: Record<BuildTarget, () => Promise<void>> = {
    node: async () => {
      await buildNodeCode(root);
      // The SDK's Node driver (test/e2e/sdk/node-user.ts) as one file beside the package's code.
      await build({
        entryPoints: ['test/e2e/sdk/node-user.ts'],
        outfile: join(root, 'sdk-node-user.js'),
        bundle: true,
        packages: 'external',
        platform: 'node',
        format: 'esm',
        target: 'node20',
        logLevel: 'warning',
      });
    },
    window: async () => {
      for (const options of desktopBundles(root)) await build({ logLevel: 'warning', ...options });
    },
  };
  const builds = new Map<BuildTarget, Promise<void>>();
  const server = createServer((request, response) => {
    const target = request.url?.slice(1) as BuildTarget;
    const builder = builders[target];
    if (builder === undefined) {
      response.writeHead(404).end();
      return;
    }
    if (!builds.has(target)) builds.set(target, builder());
    builds.get(target)!.then(
      () => response.writeHead(200, { 'content-type': 'text/plain' }).end(root),
      (error: unknown) => response.writeHead(500).end(String(error)),
    );
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  project.provide('buildService', `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  return async () => {
    server.closeAllConnections();
    await new Promise((closed) => server.close(closed));
    await Promise.allSettled(builds.values());
    await rm(root, { recursive: true, force: true });
  };
}
