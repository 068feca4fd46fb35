import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { writeFileAtomic } from './atomic.js';
import { isMissing } from './layout.js';

/**
 * The manifest is a namespace's commit record: the documents it holds and the one index snapshot
 * that contains exactly their chunks. It is written last, atomically, so the pair on disk is always
 * consistent whatever moment a process dies at.
 */
export const ManifestEntry = z.object({
  documentId: z.string().min(1),
  /** What a person recognises: the absolute path, the URL, or `text: <title>`. */
  source: z.string(),
  kind: z.enum(['file', 'url', 'text']),
  path: z.string().optional(),
  url: z.string().optional(),
  title: z.string(),
  format: z.enum(['pdf', 'markdown', 'html', 'text']),
  /** sha256 of the file's bytes; of the normalised text for URLs and raw text. */
  contentHash: z.string(),
  /** Bytes read: the file size, or the normalised text's size for URLs and raw text. */
  size: z.number().int().nonnegative(),
  /** Files only: lets an unchanged file be recognised from a stat, without reading it. */
  mtimeMs: z.number().optional(),
  /** Page numbers in reading order, for paged formats (PDF); absent for the others. */
  pageNumbers: z.array(z.number().int().positive()).optional(),
  chunks: z.number().int().nonnegative(),
  ingestedAt: z.iso.datetime(),
  /** File name under the documents folder holding the normalised text (pages joined by \f). */
  documentFile: z.string().regex(/^[\w.-]+$/),
  warnings: z.array(z.string()),
});
export type ManifestEntry = z.infer<typeof ManifestEntry>;

export const MANIFEST_VERSION = 1;

export const Manifest = z.object({
  version: z.literal(MANIFEST_VERSION),
  /** Counts commits; names the snapshot file so a new one never overwrites the committed one. */
  generation: z.number().int().nonnegative(),
  /** File name of the index snapshot in the store folder; null before the first commit. */
  snapshot: z
    .string()
    .regex(/^[\w.-]+$/)
    .nullable(),
  documents: z.array(ManifestEntry),
});
export type Manifest = z.infer<typeof Manifest>;

export const EMPTY_MANIFEST: Manifest = {
  version: MANIFEST_VERSION,
  generation: 0,
  snapshot: null,
  documents: [],
};

/** The committed manifest, or the empty one for a namespace that has never been written. */
export async function readManifest(file: string): Promise<Manifest> {
  let raw: string;
  try {
    raw = await readFile(file, 'utf8');
  } catch (error) {
    if (isMissing(error)) return EMPTY_MANIFEST;
    throw error;
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new Error(`the manifest ${file} is not valid JSON`);
  }
  const parsed = Manifest.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(
      `the manifest ${file} is not readable: ${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}`,
    );
  }
  return parsed.data;
}

export async function writeManifest(file: string, manifest: Manifest): Promise<void> {
  await writeFileAtomic(file, `${JSON.stringify(manifest)}\n`);
}

export function snapshotFileName(generation: number): string {
  return `index.${generation}.snapshot`;
}
