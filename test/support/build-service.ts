import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import type { TestProject } from 'vitest/node';
import { desktopBundles } from '../../desktop/bundles.js';
import { buildNodeCode } from '../../scripts/node-build.js';
import { postgresUrl, withPostgresAdmin } from './stores.js';

/**
 * What the tests can ask to have built: the Node code (with the SDK's Node driver), the desktop
 * window, or a PostgreSQL database with every migration run, to copy (CREATE DATABASE … TEMPLATE).
 */
export type BuildTarget = 'node' | 'window' | 'postgres';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The URL of this run's build service (test/support/built.ts asks it). */
    buildService: string;
  }
}

/**
 * vitest's globalSetup: builds what the test files would otherwise each build again, once per run
 * and only when a file first asks for it. A file asks over loopback HTTP (`GET /node`,
 * `GET /window`, `GET /postgres`) and gets the folder (or the template database's name) once the
 * build is done; every later asker gets the same. The build goes inside the repository
 * (test/.artifacts/build-…) so that built code resolves the project's node_modules; it and the
 * template database are removed when the run ends.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const artifacts = resolve('test/.artifacts');
  await mkdir(artifacts, { recursive: true });
  const root = await mkdtemp(join(artifacts, 'build-'));
  const template = `parley_template_${randomBytes(6).toString('hex')}`;
  const builders: Record<BuildTarget, () => Promise<string>> = {
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
      return root;
    },
    window: async () => {
      for (const options of desktopBundles(root)) await build({ logLevel: 'warning', ...options });
      return root;
    },
    // A copy of it costs PostgreSQL 0.14 s of CPU; a new database migrated, 0.34 s (the test's 0.06 s included).
    postgres: async () => {
      const { openChatStore } = await import('../../server/db/database.js');
      await withPostgresAdmin((admin) => admin.query(`CREATE DATABASE ${template}`));
      const store = await openChatStore({ dataDir: root, databaseUrl: postgresUrl(template) });
      await store.close();
      // Nothing may connect to it again: a database being copied must have no other sessions.
      await withPostgresAdmin((admin) => admin.query(`ALTER DATABASE ${template} ALLOW_CONNECTIONS false`));
      return template;
    },
  };
  const builds = new Map<BuildTarget, Promise<string>>();
  const server = createServer((request, response) => {
    const target = request.url?.slice(1) as BuildTarget;
    const builder = builders[target];
    if (builder === undefined) {
      response.writeHead(404).end();
      return;
    }
    if (!builds.has(target)) builds.set(target, builder());
    builds.get(target)!.then(
      (built) => response.writeHead(200, { 'content-type': 'text/plain' }).end(built),
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
    if (builds.has('postgres'))
      await withPostgresAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`));
  };
}
