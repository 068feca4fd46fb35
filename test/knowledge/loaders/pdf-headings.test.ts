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

describe('outline titles holding a link', () => {
  it('match the printed title that sets the address after the link text', () => {
    // Texinfo's @uref in a section title: the outline says "address, text", the page "text (address)".
    const pages = [
      [
        {
          lines: [
            { text: '13.1.1.10 Version 2.12.17 [2008 May 29 Oak Apple Day (England)', y: 700, size: 12 },
            { text: '(http://en.wikipedia.org/wiki/Oak_Apple_Day)]', y: 686, size: 12 },
          ],
        },
        paragraph(660, 'New Features'),
        paragraph(640, 'Add GNU readline support so that interactive mode will have history.'),
        paragraph(600, '13.1.1.11 Version 2.12.16 [2007 Jul 20 anniversary of the first moon landing'),
      ],
    ];
    const outline = new Map([
      [
        1,
        [
          {
            title:
              'Version 2.12.17 [2008 May 29 http://en.wikipedia.org/wiki/Oak_Apple_Day, Oak Apple Day (England)]',
            level: 4,
            top: 720,
          },
        ],
      ],
    ]);
    const [page] = withOutlinePages(pages, outline);
    expect(page?.map((p) => p.level)).toEqual([4, undefined, undefined, undefined]);
  });
});
