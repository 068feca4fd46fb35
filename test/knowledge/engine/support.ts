import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { KnowledgeEngine, type KnowledgeEngineOptions } from '../../../knowledge/index.js';
import { Manifest } from '../../../knowledge/store/manifest.js';

/** A fresh temporary folder per test, removed after it. */
export function useTempFolders(): (prefix: string) => Promise<string> {
  const made: string[] = [];
  afterEach(async () => {
    await Promise.all(made.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
  });
  return async (prefix) => {
    const folder = await mkdtemp(join(tmpdir(), `parley-${prefix}-`));
    made.push(folder);
    return folder;
  };
}

/**
 * Engines opened through this are closed after each test. They parse in one worker unless told
 * otherwise: starting workers is most of a small test's time on a shared machine.
 */
export function useEngines(): (options: KnowledgeEngineOptions) => Promise<KnowledgeEngine> {
  const opened: KnowledgeEngine[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((engine) => engine.close()));
  });
  return async (options) => {
    const engine = await KnowledgeEngine.open({ workers: 1, ...options });
    opened.push(engine);
    return engine;
  };
}

export interface SharedEngine {
  engine: KnowledgeEngine;
  dataDir: string;
  /** A namespace no other test of the file uses. */
  namespace: string;
}

/**
 * One engine for all tests of a file, each test in its own namespace: parser workers start once
 * per file instead of once per test.
 */
export function useSharedEngine(): () => SharedEngine {
  let engine: KnowledgeEngine | undefined;
  let dataDir = '';
  let namespaces = 0;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'parley-shared-'));
    engine = await KnowledgeEngine.open({ dataDir });
  });
  afterAll(async () => {
    await engine?.close();
    await rm(dataDir, { recursive: true, force: true });
  });
  return () => {
    if (!engine) throw new Error('the shared engine is not open');
    return { engine, dataDir, namespace: `test-${++namespaces}` };
  };
}

/** Writes files given as relative path → content under a folder, creating subfolders. */
export async function writeFiles(folder: string, files: Record<string, string>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(folder, path)), { recursive: true });
    await writeFile(join(folder, path), content);
  }
}

export async function readCommittedManifest(dataDir: string, namespace: string): Promise<Manifest> {
  const raw = await readFile(join(dataDir, 'knowledge', namespace, '.parley', 'manifest.json'), 'utf8');
  return Manifest.parse(JSON.parse(raw));
}
