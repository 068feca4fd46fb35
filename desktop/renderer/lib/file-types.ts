/**
 * The file types the agent ingests, for the file picker and for skipping other files in a dropped
 * folder (the engine's list lives in Node-only code; a test keeps the two equal).
 */
export const INGESTIBLE_EXTENSIONS = ['.pdf', '.md', '.mdx', '.txt', '.html', '.htm'] as const;

export function isIngestible(fileName: string): boolean {
  const dot = fileName.lastIndexOf('.');
  return dot > 0 && (INGESTIBLE_EXTENSIONS as readonly string[]).includes(fileName.slice(dot).toLowerCase());
}
