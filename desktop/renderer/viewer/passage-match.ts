/** Text compared the way passages are shown: no Markdown heading marks, spaces collapsed, lower case. */
export function normalizeForMatch(text: string): string {
  return text
    .replace(/^ {0,3}#{1,6}\s+/gm, '')
    .replace(/…$/, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

/** Pieces shorter than this ("the", "1.") would light up everywhere. */
const MIN_PIECE_CHARS = 8;
/** How much of the passage's start a longer piece must contain to be where the passage begins. */
const PASSAGE_START_CHARS = 80;

/**
 * Whether a piece of the document (a line of a PDF page, a paragraph) belongs to the cited
 * passage: it lies inside the passage, or it contains the passage's beginning.
 */
export function isPartOfPassage(piece: string, passage: string): boolean {
  const candidate = normalizeForMatch(piece);
  const wanted = normalizeForMatch(passage);
  if (candidate.length < MIN_PIECE_CHARS || wanted.length === 0) return false;
  return wanted.includes(candidate) || candidate.includes(wanted.slice(0, PASSAGE_START_CHARS));
}
