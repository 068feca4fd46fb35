/**
 * The answer bench's question sets (bench/answers/*.json) and its rule for a hit, shared by the
 * bench (bench/answers.ts) and the composer's weight fit (bench/answers/fit.ts), so both read the
 * same sets, ingest the same files and count the same answers.
 */
import { copyFile, mkdir, readdir, readFile } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { SourceRef } from '../shared/agent.js';
import { markdownToPlainText } from '../widget/markdown.js';

export const setsDir = join(resolve(dirname(fileURLToPath(import.meta.url)), '..'), 'bench/answers');

export const QuestionSet = z.object({
  manual: z.string(),
  package: z.string(),
  /** How to make the manual available when `apt-get install <package>` is not the way. */
  install: z.string().optional(),
  root: z.string(),
  include: z.string(),
  /** A set written to check tuning, not to tune on: reported apart from the others, its misses not printed. */
  heldOut: z.boolean().default(false),
  questions: z
    .array(
      z.object({
        question: z.string().min(1),
        pages: z.array(z.union([z.string(), z.number().int().positive()])).min(1),
        answer: z.string().min(1),
      }),
    )
    .min(1),
});
export type QuestionSet = z.infer<typeof QuestionSet>;
export type Page = QuestionSet['questions'][number]['pages'][number];

/** The names of the sets in bench/answers, in name order; only those listed when `only` is given. */
export async function setNames(only?: readonly string[]): Promise<string[]> {
  return (await readdir(setsDir))
    .filter((name) => name.endsWith('.json'))
    .map((name) => basename(name, '.json'))
    .filter((name) => !only || only.includes(name))
    .sort();
}

export async function readSet(name: string): Promise<QuestionSet> {
  return QuestionSet.parse(JSON.parse(await readFile(join(setsDir, `${name}.json`), 'utf8')));
}

/**
 * Copies the files of a set's manual (those under `root` whose path relative to it matches
 * `include`) to `copy`, so the folder ingested is exactly the manual; returns their paths, in a
 * stable order.
 */
export async function copyManual(set: QuestionSet, copy: string): Promise<string[]> {
  const include = new RegExp(set.include);
  const files = (await readdir(set.root, { recursive: true, withFileTypes: true }))
    .filter((entry) => entry.isFile())
    .map((entry) => relative(set.root, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .filter((path) => include.test(path))
    .sort();
  for (const file of files) {
    await mkdir(dirname(join(copy, file)), { recursive: true });
    await copyFile(join(set.root, file), join(copy, file));
  }
  return files;
}

/** Whether a source is one of the expected pages: a file of the manual copied to `copy`, or a PDF page. */
export function isExpected(
  source: Pick<SourceRef, 'path' | 'page'>,
  pages: readonly Page[],
  copy: string,
): boolean {
  return pages.some((page) =>
    typeof page === 'number'
      ? source.page === page
      : source.path !== undefined && relative(copy, source.path).split(sep).join('/') === page,
  );
}

/** An answer's text before `Sources:` as the widget shows it (`markdownToPlainText`), without Markdown marks. */
export const displayedAnswer = (text: string): string =>
  markdownToPlainText(text.split(/\n\nSources:\n/)[0] ?? '');
