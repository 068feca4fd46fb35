import { describe, expect, it } from 'vitest';
import { withOutlinePages } from '../../../knowledge/loaders/pdf-headings.js';
import type { PdfParagraph } from '../../../knowledge/loaders/pdf-layout.js';

const paragraph = (y: number, text: string): PdfParagraph => ({ lines: [{ text, y, size: 12 }] });

describe('outline headings of a PDF', () => {
  it('find a title on the next page when its destination has no text below it on its own', () => {
    // LaTeX left the anchor of 17.8.7 at the top of a page holding only a running header.
    const pages = [
      [paragraph(813, '438 CHAPTER 17. INTERACTIVE INTERPRETER')],
      [
        paragraph(773, '17.8.7 Example script for random numbers'),
        paragraph(740, 'Generation and test of random numbers with Gaussian distribution'),
      ],
    ];
    const outline = new Map([
      [1, [{ title: '17.8.7 Example script for random numbers', level: 3, top: 785 }]],
    ]);
    const [, next] = withOutlinePages(pages, outline);
    expect(next?.map((p) => p.level)).toEqual([3, undefined]);
  });
});
