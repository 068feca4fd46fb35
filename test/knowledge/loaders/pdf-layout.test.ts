import { describe, expect, it } from 'vitest';
import {
  pageParagraphs,
  pageText as textOf,
  withoutRunningLines,
  type PositionedText,
} from '../../../knowledge/loaders/pdf-layout.js';

const pageText = (runs: PositionedText[]): string => textOf(pageParagraphs(runs));

/** Lines of 10-point text from (x, y) down, 12 points apart, about 5 points per character. */
function lines(x: number, y: number, texts: string[]): PositionedText[] {
  return texts.map((text, i) => ({ text, x, y: y - 12 * i, width: text.length * 5, size: 10 }));
}

const COLUMN_A = [
  'alpha one of the first column',
  'alpha two of the first column',
  'alpha three of the first col',
];
const COLUMN_B = [
  'beta one of the second column',
  'beta two of the second column',
  'beta three of the second col',
];

describe('PDF page reading order', () => {
  it('reads columns one after the other whatever order the runs come in', () => {
    const left = lines(50, 700, COLUMN_A);
    const right = lines(320, 700, COLUMN_B);
    const interleaved = left.flatMap((run, i) => [right[i] as PositionedText, run]);
    expect(pageText(interleaved)).toBe(`${COLUMN_A.join(' ')}\n\n${COLUMN_B.join(' ')}`);
  });

  it('reads full-width text between column bands in place', () => {
    const runs = [
      ...lines(50, 700, COLUMN_A),
      ...lines(320, 700, COLUMN_B),
      {
        text: 'Figure 1: a caption running across both columns of the page',
        x: 50,
        y: 640,
        width: 500,
        size: 10,
      },
      ...lines(50, 610, [
        'gamma one of the first column',
        'gamma two of the first column',
        'gamma three first column',
      ]),
      ...lines(320, 610, [
        'delta one of the second column',
        'delta two of the second column',
        'delta three second col',
      ]),
    ];
    const paragraphs = pageText(runs).split('\n\n');
    expect(paragraphs.map((p) => p.split(' ')[0])).toEqual(['alpha', 'beta', 'Figure', 'gamma', 'delta']);
  });

  it('keeps the rows of a table together instead of reading its cells as columns', () => {
    const rows = ['Pump', 'Valve', 'Filter', 'Hose'].map((name, i) => [
      { text: name, x: 50, y: 700 - 12 * i, width: name.length * 5, size: 10 },
      { text: `${i + 1}0 kg`, x: 200, y: 700 - 12 * i, width: 25, size: 10 },
      { text: `part ${i + 1}`, x: 300, y: 700 - 12 * i, width: 30, size: 10 },
    ]);
    expect(pageText(rows.flat())).toBe(
      'Pump | 10 kg | part 1\n\nValve | 20 kg | part 2\n\nFilter | 30 kg | part 3\n\nHose | 40 kg | part 4',
    );
  });

  it('starts a new paragraph at a wider line gap and at a change of font size', () => {
    const runs = [
      { text: 'Maintenance', x: 50, y: 720, width: 90, size: 16 },
      ...lines(50, 700, ['first paragraph line', 'continues here']),
      ...lines(50, 664, ['second paragraph']),
    ];
    expect(pageText(runs)).toBe('Maintenance\n\nfirst paragraph line continues here\n\nsecond paragraph');
  });

  it('joins the lines of a paragraph set beside a listing in a smaller font with tighter leading', () => {
    // 10-point text 12 points apart, paragraphs 18 apart; 8-point code 8.8 points apart.
    const code = ['from shop import till', 'def sell(t):', '    t.ring(100)', 'sell(till)'];
    const runs = [
      ...lines(78, 690, ['The till package is the lowest level', 'interface for ringing up sales.']),
      ...lines(78, 660, ['A simple example program follows.']),
      ...code.map((text, i) => ({ text, x: 133, y: 643 - 8.8 * i, width: text.length * 4.8, size: 8 })),
      ...lines(78, 600, ['The above code rings up one sale', 'and closes the till afterwards.']),
    ];
    const paragraphs = pageText(runs).split('\n\n');
    expect(paragraphs[0]).toBe('The till package is the lowest level interface for ringing up sales.');
    expect(paragraphs.at(-1)).toBe('The above code rings up one sale and closes the till afterwards.');
  });

  it('joins the lines of a paragraph below a table whose cells are centred in their rows', () => {
    // Rows 30 points tall: a one-line cell 6 points below the top of its two-line neighbour.
    const table = [720, 690, 660].flatMap((top, i) => [
      { text: `Rule ${i + 1}`, x: 78, y: top, width: 30, size: 10 },
      { text: 'applies to', x: 200, y: top - 6, width: 45, size: 10 },
      { text: `case ${i + 1}`, x: 300, y: top, width: 30, size: 10 },
      { text: 'and no other', x: 300, y: top - 12, width: 55, size: 10 },
    ]);
    const runs = [
      ...table,
      ...lines(78, 620, [
        'When a file is encrypted, encryption is',
        'applied to all its strings and streams.',
      ]),
    ];
    expect(pageText(runs).split('\n\n').at(-1)).toBe(
      'When a file is encrypted, encryption is applied to all its strings and streams.',
    );
  });

  it('separates runs on one line by a space only where there is a gap', () => {
    const runs = [
      { text: 'Hydro', x: 50, y: 700, width: 25, size: 10 },
      { text: 'static', x: 75, y: 700, width: 30, size: 10 },
      { text: 'pressure', x: 108, y: 700, width: 40, size: 10 },
    ];
    expect(pageText(runs)).toBe('Hydrostatic pressure');
  });

  it('gives no text for a page without runs', () => {
    expect(pageText([{ text: '  ', x: 0, y: 0, width: 5, size: 10 }])).toBe('');
  });
});

/** A line of cells at the given x positions, 10-point text, 13 points below the one before. */
const row = (y: number, cells: [number, string][]): PositionedText[] =>
  cells.map(([x, text]) => ({ text, x, y, width: text.length * 5, size: 10 }));

describe('tables of a PDF page', () => {
  it('give each line of cells apart a paragraph of its own, a wrapped description joined to its row', () => {
    const runs = [
      ...row(700, [[90, 'Options (negate boolean options by replacing - with -no):']]),
      ...row(687, [
        [90, '-GPUblockSize n'],
        [222, 'Compute shader block size [8]'],
      ]),
      ...row(674, [
        [90, '-digits n'],
        [222, 'Default output file precision [7]'],
      ]),
      ...row(661, [
        [90, '-hyperrefOptions str'],
        [222, 'Options given to hyperref'],
      ]),
      ...row(648, [[222, '[setpagesize=false]']]),
      ...row(635, [
        [90, '-zoomstep step'],
        [222, 'Mouse motion zoom step [0.1]'],
      ]),
    ];
    expect(pageText(runs)).toBe(
      'Options (negate boolean options by replacing - with -no):\n\n' +
        '-GPUblockSize n | Compute shader block size [8]\n\n' +
        '-digits n | Default output file precision [7]\n\n' +
        '-hyperrefOptions str | Options given to hyperref [setpagesize=false]\n\n' +
        '-zoomstep step | Mouse motion zoom step [0.1]',
    );
  });

  it('label each row by a first row of words over a column of numbers', () => {
    const runs = [
      ...row(700, [
        [90, 'Bit'],
        [150, 'plot'],
        [250, 'splot'],
      ]),
      ...row(687, [
        [90, '1'],
        [150, 'bottom'],
        [250, 'bottom left front'],
      ]),
      ...row(674, [
        [90, '2'],
        [150, 'left'],
        [250, 'bottom left back'],
      ]),
      ...row(661, [
        [90, '4096'],
        [150, 'polar'],
        [250, 'no effect'],
      ]),
    ];
    expect(pageText(runs)).toBe(
      'Bit: 1 | plot: bottom | splot: bottom left front\n\n' +
        'Bit: 2 | plot: left | splot: bottom left back\n\n' +
        'Bit: 4096 | plot: polar | splot: no effect',
    );
  });

  it('take no header over rows without numbers, or over options', () => {
    const colours = [
      ...row(700, [
        [90, 'palered'],
        [200, 'palecyan'],
        [300, 'black'],
      ]),
      ...row(687, [
        [90, 'lightred'],
        [200, 'lightcyan'],
        [300, 'white'],
      ]),
      ...row(674, [
        [90, 'mediumred'],
        [200, 'mediumcyan'],
        [300, 'gray'],
      ]),
    ];
    expect(pageText(colours).split('\n\n')[0]).toBe('palered | palecyan | black');
    const options = [
      ...row(700, [
        [90, '-p'],
        [200, '--persist'],
      ]),
      ...row(687, [
        [90, '-e'],
        [200, '"command1; command2; ..."'],
      ]),
      ...row(674, [
        [90, '-c'],
        [200, 'scriptfile ARG1 ARG2 ...'],
      ]),
    ];
    expect(pageText(options).split('\n\n')[0]).toBe('-p | --persist');
  });

  it('leave a paragraph of prose with one wide gap as prose', () => {
    const runs = [
      ...row(700, [[90, 'The default line width is 0.5 bp; this value may be']]),
      ...row(687, [
        [90, 'changed with'],
        [200, 'defaultpen(pen).'],
      ]),
      ...row(674, [[90, 'The line width of a pen is returned by linewidth.']]),
    ];
    expect(pageText(runs)).toBe(
      'The default line width is 0.5 bp; this value may be changed with defaultpen(pen). ' +
        'The line width of a pen is returned by linewidth.',
    );
  });
});

describe('running headers and footers of a PDF manual', () => {
  const pages = [
    '1\n\n1 Obtaining R\n\nSources can be obtained via CRAN.',
    'Chapter 1: Obtaining R 2\n\nThe tarballs are available daily.\n\nSee the FAQ.',
    'Chapter 1: Obtaining R 3\n\nUse rsync to fetch the recommended packages.',
    'Chapter 1: Obtaining R 4\n\nChecking the sources takes a while.',
    '5\n\n2 Installing R\n\nRun configure, then make.',
    'Chapter 2: Installing R 6\n\nSee the FAQ.',
    '7\n\n3 Running R\n\nR expects a stack of at least 8MB.',
  ];

  it('are dropped from every page, numbers aside, with lone page numbers', () => {
    expect(withoutRunningLines(pages)).toEqual([
      '1 Obtaining R\n\nSources can be obtained via CRAN.',
      'The tarballs are available daily.\n\nSee the FAQ.',
      'Use rsync to fetch the recommended packages.',
      'Checking the sources takes a while.',
      '2 Installing R\n\nRun configure, then make.',
      'Chapter 2: Installing R 6\n\nSee the FAQ.',
      '3 Running R\n\nR expects a stack of at least 8MB.',
    ]);
  });
});
