import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chunkDocument } from '../../../knowledge/chunker.js';
import { loadSource, SourceError } from '../../../knowledge/loaders/index.js';
import { writePdf, type PdfOutlineEntry, type PdfPageSpec } from '../support/pdf.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'parley-pdf-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const LEFT = [
  'The left column opens the article',
  'and explains how the valve works',
  'when the pressure rises quickly.',
  'It ends before the right column.',
];
const RIGHT = [
  'The right column continues with',
  'maintenance advice for the valve',
  'and the intervals for inspection.',
  'It is read after the left column.',
];

describe('PDF loader', () => {
  it('reads a two-column page column by column, below its full-width heading', async () => {
    const path = await writePdf(join(dir, 'columns.pdf'), [
      { lines: ['Valve Handbook: Chapter One'], columns: [LEFT, RIGHT] },
    ]);
    const doc = await loadSource({ kind: 'file', path });
    const text = doc.pages[0]?.text ?? '';
    expect(text).toBe(['Valve Handbook: Chapter One', LEFT.join(' '), RIGHT.join(' ')].join('\n\n'));
  });

  it('keeps one page per PDF page with its 1-based number', async () => {
    const path = await writePdf(join(dir, 'three-pages.pdf'), [
      { lines: ['First page about pumps.'] },
      { lines: ['Second page'], columns: [LEFT, RIGHT] },
      { lines: ['Third page about filters.'] },
    ]);
    const doc = await loadSource({ kind: 'file', path });
    expect(doc.format).toBe('pdf');
    expect(doc.pages.map((p) => p.page)).toEqual([1, 2, 3]);
    expect(doc.pages[0]?.text).toBe('First page about pumps.');
    expect(doc.pages[1]?.text.indexOf('The left column')).toBeLessThan(
      doc.pages[1]?.text.indexOf('The right column') ?? -1,
    );
    expect(doc.pages[2]?.text).toBe('Third page about filters.');
  });

  it('reports every page to onPage as it is parsed', async () => {
    const path = await writePdf(join(dir, 'progress.pdf'), [
      { lines: ['a'] },
      { lines: ['b'] },
      { lines: ['c'] },
    ]);
    const calls: [number, number][] = [];
    await loadSource({ kind: 'file', path }, { onPage: (page, total) => calls.push([page, total]) });
    expect(calls).toEqual([
      [1, 3],
      [2, 3],
      [3, 3],
    ]);
  });

  it('joins a word hyphenated across a line break', async () => {
    const path = await writePdf(join(dir, 'hyphen.pdf'), [
      {
        lines: ['The gasket must be replaced at every inspec-', 'tion of the housing, as a well-known rule.'],
      },
    ]);
    const doc = await loadSource({ kind: 'file', path });
    expect(doc.pages[0]?.text).toBe(
      'The gasket must be replaced at every inspection of the housing, as a well-known rule.',
    );
  });

  it('refuses an image-only PDF as probably scanned', async () => {
    const path = await writePdf(join(dir, 'scan.pdf'), [{ drawing: true }, { drawing: true }]);
    const loading = loadSource({ kind: 'file', path });
    await expect(loading).rejects.toBeInstanceOf(SourceError);
    await expect(loading).rejects.toThrow('no extractable text: scanned or image-only PDF?');
  });

  it('warns about the range of pages without text and keeps the others', async () => {
    const path = await writePdf(join(dir, 'partly-scanned.pdf'), [
      { lines: ['Typed first page.'] },
      { drawing: true },
      { drawing: true },
      { lines: ['Typed fourth page.'] },
      { drawing: true },
    ]);
    const doc = await loadSource({ kind: 'file', path });
    expect(doc.warnings).toEqual([
      'pages 2-3: no extractable text: scanned or image-only PDF?',
      'page 5: no extractable text: scanned or image-only PDF?',
    ]);
    expect(doc.pages.map((p) => p.text)).toEqual(['Typed first page.', '', '', 'Typed fourth page.', '']);
  });

  it('leaves out the entries of contents and index pages, without reporting those pages as scanned', async () => {
    const path = await writePdf(join(dir, 'contents-and-index.pdf'), [
      {
        blocks: [
          { x: 72, y: 720, lines: ['Contents'], fontSize: 16 },
          {
            x: 72,
            y: 680,
            lines: [
              'Installing the pump . . . . . . . . . . . . . . . . . . 2',
              'Cleaning the filter . . . . . . . . . . . . . . . . . . 2, 3',
            ],
          },
        ],
      },
      { lines: ['The pump is installed below the filter housing.', 'Clean the filter every month.'] },
      {
        blocks: [
          { x: 72, y: 700, lines: ['filter, 2, 3', 'housing, 2'] },
          { x: 330, y: 700, lines: ['pump, 2', 'washer, 3'] },
        ],
      },
    ]);
    const doc = await loadSource({ kind: 'file', path });
    expect(doc.pages.map((p) => p.text)).toEqual([
      '# Contents',
      'The pump is installed below the filter housing. Clean the filter every month.',
      '',
    ]);
    expect(doc.warnings).toEqual([]);
  });

  it('leaves out a page of an index whose terms stand above their indented entries', async () => {
    // Sphinx's index of options: each term on a line of its own, its entries indented under it,
    // an entry's pages wrapped onto the next line; two columns whose lines share baselines.
    const column = (x: number, entries: [string, number][]) =>
      entries.map(([text, indent], i) => ({ x: x + indent, y: 700 - 12 * i, lines: [text], fontSize: 10 }));
    const path = await writePdf(join(dir, 'nested-index.pdf'), [
      { lines: ['Option --timelimit sets the time limit of the prover, in seconds.'] },
      {
        blocks: [
          ...column(72, [
            ['-C', 0],
            ['why3 command line option, 61', 12],
            ['-D', 0],
            ['why3-extract command line option, 82', 12],
            ['why3-prove command line option, 65', 12],
            ['--add_pp', 0],
            ['why3-session-html command line option,', 12],
            ['79', 24],
            ['--apply-transform', 0],
            ['why3-prove command line option, 64', 12],
          ]),
          ...column(330, [
            ['--force', 0],
            ['why3-replay command line option, 74', 12],
            ['--goal', 0],
            ['why3-prove command line option, 64', 12],
            ['ref', 0],
            ['reference, 94', 12],
            ['session', 0],
            ['session html', 12],
            ['command, 78', 24],
            ['--timelimit, 65', 12],
          ]),
        ],
      },
    ]);
    const doc = await loadSource({ kind: 'file', path });
    expect(doc.pages.map((p) => p.text)).toEqual([
      'Option --timelimit sets the time limit of the prover, in seconds.',
      '',
    ]);
  });

  it('takes the title from the PDF metadata', async () => {
    const path = await writePdf(join(dir, 'meta.pdf'), [{ lines: ['Body'] }], {
      title: 'Pump Service Guide',
    });
    expect((await loadSource({ kind: 'file', path })).title).toBe('Pump Service Guide');
  });

  it('falls back to the file name for a PDF without a metadata title', async () => {
    const path = await writePdf(join(dir, 'untitled-report.pdf'), [{ lines: ['Body'] }]);
    expect((await loadSource({ kind: 'file', path })).title).toBe('untitled-report.pdf');
  });

  it('refuses a file with a .pdf name that is not a PDF', async () => {
    const path = join(dir, 'fake.pdf');
    await writeFile(path, 'just some text, no PDF structure at all');
    await expect(loadSource({ kind: 'file', path })).rejects.toThrow(SourceError);
  });
});

/** Two pages of a manual whose section titles are numbered on the page, not in the outline. */
const MANUAL: PdfPageSpec[] = [
  {
    blocks: [
      { x: 72, y: 720, lines: ['1 Valves'], fontSize: 18 },
      { x: 72, y: 690, lines: ['Valves hold the pressure of the line', 'in every circuit of the plant.'] },
      { x: 72, y: 640, lines: ['1.1 Relief valves'], fontSize: 14 },
      { x: 72, y: 615, lines: ['A relief valve opens at 8 bar.', 'It closes again at 6 bar.'] },
    ],
  },
  {
    blocks: [
      { x: 72, y: 720, lines: ['Maintenance'] },
      { x: 72, y: 695, lines: ['The relief valve is tested', 'once a year by the operator.'] },
      { x: 72, y: 640, lines: ['1.2 Maintenance'], fontSize: 14 },
      { x: 72, y: 615, lines: ['Oil the stem every month', 'and replace the seal yearly.'] },
    ],
  },
];
const MANUAL_OUTLINE: PdfOutlineEntry[] = [
  {
    title: '1 Valves',
    page: 1,
    top: 740,
    children: [
      { title: 'Relief valves', page: 1, top: 658 },
      { title: 'Maintenance', page: 2, top: 658 },
    ],
  },
];

describe('PDF section headings', () => {
  it('marks the outline titles as headings of their depth where their destination points', async () => {
    const path = await writePdf(join(dir, 'outline.pdf'), MANUAL, { outline: MANUAL_OUTLINE });
    const doc = await loadSource({ kind: 'file', path });
    expect(doc.pages.map((p) => p.text)).toEqual([
      '# 1 Valves\n\nValves hold the pressure of the line in every circuit of the plant.\n\n' +
        '## 1.1 Relief valves\n\nA relief valve opens at 8 bar. It closes again at 6 bar.',
      'Maintenance\n\nThe relief valve is tested once a year by the operator.\n\n' +
        '## 1.2 Maintenance\n\nOil the stem every month and replace the seal yearly.',
    ]);
  });

  it('gives the chunks of a PDF with an outline their section, over page breaks', async () => {
    const path = await writePdf(join(dir, 'outline-chunks.pdf'), MANUAL, { outline: MANUAL_OUTLINE });
    const chunks = chunkDocument(await loadSource({ kind: 'file', path }), 'doc1');
    expect(chunks.map((c) => [c.page, c.headingPath, c.text.split('\n')[0]])).toEqual([
      [1, ['1 Valves'], '# 1 Valves'],
      [1, ['1 Valves', '1.1 Relief valves'], '## 1.1 Relief valves'],
      [2, ['1 Valves', '1.1 Relief valves'], 'Maintenance'],
      [2, ['1 Valves', '1.2 Maintenance'], '## 1.2 Maintenance'],
    ]);
  });

  it('splits a title from the text that runs on after it on its line', async () => {
    const path = await writePdf(
      join(dir, 'run-in.pdf'),
      [
        {
          blocks: [
            { x: 72, y: 700, lines: ['Column'] },
            { x: 118, y: 700, lines: ['The column function reads one field'] },
            { x: 72, y: 686.8, lines: ['of the current row.'] },
          ],
        },
      ],
      { outline: [{ title: 'Column', page: 1, top: 712 }] },
    );
    const doc = await loadSource({ kind: 'file', path });
    expect(doc.pages[0]?.text).toBe('# Column\n\nThe column function reads one field of the current row.');
  });

  it('takes short lines in a clearly larger font for headings without an outline, the largest first, contents lines not', async () => {
    const body = [
      'The pump is bolted to a level floor',
      'and wired by a qualified electrician,',
      'never by its user.',
    ];
    const path = await writePdf(join(dir, 'fonts.pdf'), [
      {
        blocks: [
          { x: 72, y: 720, lines: ['Pump Manual'], fontSize: 20 },
          { x: 72, y: 680, lines: ['Installation'], fontSize: 14 },
          { x: 72, y: 655, lines: body },
          { x: 72, y: 590, lines: ['Read this before you start.'], fontSize: 14 },
          { x: 72, y: 560, lines: ['Contents . . . . . . 2'], fontSize: 14 },
        ],
      },
      {
        blocks: [
          { x: 72, y: 720, lines: ['Wiring'], fontSize: 14 },
          { x: 72, y: 695, lines: body },
        ],
      },
    ]);
    const doc = await loadSource({ kind: 'file', path });
    const text = body.join(' ');
    expect(doc.pages.map((p) => p.text)).toEqual([
      // The contents line, no heading, is left out as contents entries are.
      `# Pump Manual\n\n## Installation\n\n${text}\n\nRead this before you start.`,
      `## Wiring\n\n${text}`,
    ]);
  });

  it("takes a numbered title a little larger than the text for a heading, and a drawing's labels not", async () => {
    // LaTeX's 11-point article: \section in 14.4 points, \subsection in 12 (1.09 times the text's
    // 11), and a figure drawn with its node names in 14 points, set apart in the middle of the page.
    const body = [
      'Nodes are drawn, by default, with shape ellipse and labeled by',
      'the node name. Other common shapes include box and circle.',
    ];
    const path = await writePdf(join(dir, 'subsections.pdf'), [
      {
        blocks: [
          { x: 72, y: 720, lines: ['2 Drawing Attributes'], fontSize: 14.4 },
          { x: 72, y: 690, lines: body, fontSize: 11, lineHeight: 13.6 },
          { x: 72, y: 640, lines: ['2.1 Node Shapes'], fontSize: 12 },
          { x: 72, y: 615, lines: body, fontSize: 11, lineHeight: 13.6 },
          { x: 250, y: 540, lines: ['hello world'], fontSize: 14 },
          { x: 72, y: 480, lines: body, fontSize: 11, lineHeight: 13.6 },
        ],
      },
    ]);
    const doc = await loadSource({ kind: 'file', path });
    const text = body.join(' ');
    expect(doc.pages[0]?.text).toBe(
      `# 2 Drawing Attributes\n\n${text}\n\n## 2.1 Node Shapes\n\n${text}\n\nhello world\n\n${text}`,
    );
  });

  it('fences a paragraph that would read as a heading as the code it is', async () => {
    const path = await writePdf(join(dir, 'comment.pdf'), [
      {
        blocks: [
          { x: 72, y: 720, lines: ['Write the plot to a file with', 'the commands below.'] },
          { x: 72, y: 680, lines: ['# choose the output format first'] },
        ],
      },
    ]);
    const doc = await loadSource({ kind: 'file', path });
    expect(doc.pages[0]?.text).toBe(
      'Write the plot to a file with the commands below.\n\n```\n# choose the output format first\n```',
    );
  });
});
