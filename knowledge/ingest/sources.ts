import { createHash } from 'node:crypto';
import { readdir, realpath, stat } from 'node:fs/promises';
import { extname, isAbsolute, join, relative, resolve } from 'node:path';
import type { SourceInput } from '../types.js';

/** One source to ingest, with the identity that finds its previous version. */
export interface PlannedSource {
  /** File inputs carry the absolute, symlink-free path. */
  input: SourceInput;
  documentId: string;
  /** The source as shown to people: the path, the URL, or `text: <title>`. */
  label: string;
}

export interface RefusedSource {
  label: string;
  error: string;
}

export interface SourcePlan {
  sources: PlannedSource[];
  refused: RefusedSource[];
  /** Folders that were expanded (absolute, symlink-free): files gone from them are removed. */
  folders: string[];
}

export interface PlanOptions {
  /** Extensions (lower case, with the dot) a folder walk picks up. */
  extensions: ReadonlySet<string>;
  /** When set, files and folders outside these (absolute, symlink-free) folders are refused. */
  ingestRoots?: readonly string[];
}

/**
 * A document id is stable per source: a hash of its normalised identity (absolute path, URL without
 * fragment, or the raw text itself), so ingesting the same source again finds the stored version.
 */
export function documentIdFor(input: SourceInput): string {
  const identity =
    input.kind === 'file'
      ? `file:${input.path}`
      : input.kind === 'url'
        ? `url:${input.url}`
        : `text:${createHash('sha256').update(input.text).digest('hex')}`;
  return createHash('sha256').update(identity).digest('hex').slice(0, 24);
}

export function isInside(folder: string, path: string): boolean {
  const rel = relative(folder, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** Hidden entries (`.git`, the store's own `.parley`) and dependency folders are never sources. */
export function isSkippedSegment(name: string): boolean {
  return name.startsWith('.') || name === 'node_modules';
}

/** Resolves inputs into the sources to ingest: folders expanded, paths checked, duplicates merged. */
export async function planSources(inputs: readonly SourceInput[], options: PlanOptions): Promise<SourcePlan> {
  const plan: SourcePlan = { sources: [], refused: [], folders: [] };
  const seen = new Set<string>();
  const add = (input: SourceInput, label: string): void => {
    const documentId = documentIdFor(input);
    if (seen.has(documentId)) return;
    seen.add(documentId);
    plan.sources.push({ input, documentId, label });
  };
  for (const input of inputs) {
    if (input.kind === 'text') {
      add(input, textLabel(input.text, input.title));
    } else if (input.kind === 'url') {
      const url = normaliseUrl(input.url);
      if (url) add({ kind: 'url', url }, url);
      else plan.refused.push({ label: input.url, error: 'not an http(s) URL' });
    } else {
      await planPath(input.path, options, plan, add);
    }
  }
  return plan;
}

async function planPath(
  given: string,
  options: PlanOptions,
  plan: SourcePlan,
  add: (input: SourceInput, label: string) => void,
): Promise<void> {
  let path: string;
  try {
    path = await realpath(resolve(given));
  } catch {
    plan.refused.push({ label: given, error: 'no such file or folder' });
    return;
  }
  if (options.ingestRoots && !options.ingestRoots.some((root) => isInside(root, path))) {
    plan.refused.push({ label: given, error: 'outside the folders this agent may read' });
    return;
  }
  if (!(await stat(path)).isDirectory()) {
    add({ kind: 'file', path }, path);
    return;
  }
  let files: string[];
  try {
    files = await walkFolder(path, options.extensions);
  } catch (error) {
    plan.refused.push({ label: given, error: `the folder cannot be read: ${(error as Error).message}` });
    return;
  }
  plan.folders.push(path);
  for (const file of files) add({ kind: 'file', path: file }, file);
}

/** Files under a folder, recursively, with one of the extensions; sorted for a stable order. */
export async function walkFolder(folder: string, extensions: ReadonlySet<string>): Promise<string[]> {
  const files: string[] = [];
  const visit = async (directory: string): Promise<void> => {
    for (const entry of await readdir(directory, { withFileTypes: true })) {
      if (isSkippedSegment(entry.name)) continue;
      const path = join(directory, entry.name);
      if (entry.isDirectory()) await visit(path);
      else if (entry.isFile() && extensions.has(extname(entry.name).toLowerCase())) files.push(path);
    }
  };
  await visit(folder);
  return files.sort();
}

function normaliseUrl(raw: string): string | undefined {
  try {
    const url = new URL(raw);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    url.hash = '';
    return url.href;
  } catch {
    return undefined;
  }
}

function textLabel(text: string, title: string | undefined): string {
  const name = title?.trim() || text.trim().split('\n', 1)[0] || 'untitled';
  return `text: ${name.length > 60 ? `${name.slice(0, 59)}…` : name}`;
}
