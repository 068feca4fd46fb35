import { isPartOfPassage, normalizeForMatch } from './passage-match.js';

export type TextBlock =
  { kind: 'heading'; level: number; text: string } | { kind: 'paragraph'; text: string };

const HEADING = /^ {0,3}(#{1,6})\s+(.+?)\s*#*\s*$/;

/**
 * A document's stored text as blocks to show: Markdown `#` headings (HTML is stored the same way)
 * and the paragraphs between them. Pages (joined by a form feed) and blank lines end paragraphs.
 */
export function textBlocks(text: string): TextBlock[] {
  const blocks: TextBlock[] = [];
  let paragraph: string[] = [];
  const endParagraph = () => {
    const joined = paragraph.join('\n').trim();
    if (joined) blocks.push({ kind: 'paragraph', text: joined });
    paragraph = [];
  };
  for (const line of text.replace(/\r\n?/g, '\n').replace(/\f/g, '\n\n').split('\n')) {
    const heading = HEADING.exec(line);
    if (heading) {
      endParagraph();
      blocks.push({ kind: 'heading', level: heading[1]?.length ?? 1, text: heading[2] ?? '' });
    } else if (line.trim() === '') endParagraph();
    else paragraph.push(line);
  }
  endParagraph();
  return blocks;
}

/**
 * The blocks a citation points at: the paragraphs of the passage, or else the heading it sits
 * under. Empty when neither is found (the document changed since it was cited).
 */
export function citedBlocks(blocks: readonly TextBlock[], passage: string, heading?: string): number[] {
  const paragraphs = blocks.flatMap((block, index) =>
    block.kind === 'paragraph' && isPartOfPassage(block.text, passage) ? [index] : [],
  );
  if (paragraphs.length > 0) return paragraphs;
  if (!heading) return [];
  const wanted = normalizeForMatch(heading);
  const found = blocks.findIndex(
    (block) => block.kind === 'heading' && normalizeForMatch(block.text) === wanted,
  );
  return found === -1 ? [] : [found];
}
