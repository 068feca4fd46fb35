import { describe, expect, it } from 'vitest';
import {
  pageParagraphs,
  pageText as textOf,
  withoutRunningLines,
  type PdfParagraph,
  type PositionedText,
  type TableContext,
  type TermContext,
} from '../../../knowledge/loaders/pdf-layout.js';

const pageText = (runs: PositionedText[]): string => textOf(pageParagraphs(runs));

/** Lines of 10-point text from (x, y) down, 12 points apart, about 5 points per character. */
function lines(x: number, y: number, texts: string[]): PositionedText[] {
  return texts.map((text, i) => ({ text, x, y: y - 12 * i, width: text.length * 5, size: 10 }));
}

/** A line of Texinfo's 10.9-point body text at (x, y), about 5 points per character. */
function line(text: string, x: number, y: number, size = 10.9): PositionedText {
  return { text, x, y, width: text.length * 5, size };
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

  it('keeps a title that wraps in its larger font in one paragraph', () => {
    // LaTeX's \\Large section title: 17.2-point lines 22 points apart, over 12-point text 14.4 apart.
    const body = (y: number, text: string): PositionedText => ({ text, x: 71, y, width: 453, size: 12 });
    const runs = [
      body(405, 'respect to branch voltages and currents, ngspice uniformly uses the associated'),
      body(390.6, 'reference convention (current flows in the direction of voltage drop).'),
      { text: '3.1', x: 71, y: 350, width: 21.5, size: 17.2 },
      {
        text: 'About netlists, device instances, models and model pa-',
        x: 109.6,
        y: 350,
        width: 415,
        size: 17.2,
      },
      { text: 'rameters', x: 109.6, y: 328, width: 66, size: 17.2 },
      body(300, 'The input to ngspice is a netlist, which lists all circuit elements, their'),
      body(285.6, 'interconnects and model parameters.'),
    ];
    expect(pageText(runs).split('\n\n')[1]).toBe(
      '3.1 About netlists, device instances, models and model parameters',
    );
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

  it('reads a listing and the paragraph set beside it one after the other, each on its own baselines', () => {
    // A figure in one-column text: a style's 8-point settings 9.6 points apart on the left, the
    // 10-point paragraph they format 12 apart on the right, starting 14 points lower.
    const settings = ['alignment = 0', 'allowOrphans = 0', 'allowWidows = 1', 'backColor = None'];
    const settingsMore = ['borderWidth = 0', 'fontName = Helvetica', 'fontSize = 10', 'leading = 12'];
    const sample = [
      'You are hereby charged that on the',
      '28th day of May, 1970, you did willfully,',
      'unlawfully, and with malice of',
      'forethought, publish an alleged',
      'phrase book. How do you plead?',
    ];
    const runs = [
      ...lines(78, 690, ['The following examples draw paragraphs in various styles.']),
      ...[...settings, ...settingsMore].map((text, i) => ({
        text,
        x: 144,
        y: 650 - 9.6 * i,
        width: text.length * 4.8,
        size: 8,
      })),
      ...lines(320, 636, sample),
      { text: 'Figure 6-1: The default style', x: 230, y: 560, width: 140, size: 10 },
    ];
    expect(pageText(runs).split('\n\n')).toEqual([
      'The following examples draw paragraphs in various styles.',
      `\`\`\`\n${[...settings, ...settingsMore].join('\n')}\n\`\`\``,
      sample.join(' '),
      'Figure 6-1: The default style',
    ]);
  });

  it('keeps the lines of a listing of settings, fenced as code, and joins those of a call', () => {
    // 8-point listings 9.6 points apart, 20 points below the text: a style's attributes, then a
    // signature with one keyword argument a line.
    const listing = (y: number, texts: string[]): PositionedText[] =>
      texts.map((text, i) => ({ text, x: 144, y: y - 9.6 * i, width: text.length * 4.8, size: 8 }));
    const settings = [
      'alignment = 0',
      'allowOrphans = 0',
      'allowWidows = 1',
      'hyphenationLang =',
      'leading = 12',
    ];
    const call = ['Frame(x1, y1, width, height,', 'leftPadding=6,', 'bottomPadding=6,', 'id=None)'];
    const runs = [
      ...lines(78, 700, ['The default style:']),
      ...listing(680, settings),
      ...lines(78, 610, ['The command']),
      ...listing(590, call),
    ];
    expect(pageText(runs).split('\n\n')).toEqual([
      'The default style:',
      `\`\`\`\n${settings.join('\n')}\n\`\`\``,
      'The command',
      call.join(' '),
    ]);
  });

  it('makes a call signature stating defaults the term its description below defines', () => {
    // 10-point text 12 points apart, 8-point code 24 points below and above it; an example call
    // states no defaults.
    const signature = 'Frame(x1, y1, width, height, leftPadding=6, bottomPadding=6, id=None)';
    const intro = [
      'Frames are active containers which are themselves',
      'contained in PageTemplates. The command',
    ];
    const description = [
      'creates a Frame instance with lower left hand corner at',
      'coordinate (x1,y1) and with dimensions width x height. The',
      'Padding arguments reduce the space available for drawing.',
    ];
    const example = 'f = Frame(inch, inch, 6*inch, 9*inch)';
    const after = ['Frames can be used directly with canvases and', 'flowables to create documents.'];
    const runs = [
      ...lines(78, 700, intro),
      { text: signature, x: 133, y: 664, width: signature.length * 4.8, size: 8 },
      ...lines(78, 640, description),
      { text: example, x: 133, y: 592, width: example.length * 4.8, size: 8 },
      ...lines(78, 568, after),
    ];
    expect(pageText(runs).split('\n\n')).toEqual([
      intro.join(' '),
      `${signature}\n: ${description.join(' ')}`,
      example,
      after.join(' '),
    ]);
  });

  it('makes a line of options alone the term of the paragraphs describing it, up to the next option or heading', () => {
    // DBLaTeX's configure options (NUT's user manual): the option line in 10-point code at the
    // margin, 27 points above its description, paragraphs 18 points apart, a title after.
    const runs = [
      { text: '--with-altpidpath=PATH', x: 57, y: 700, width: 130, size: 10 },
      ...lines(57, 673, [
        'Programs that normally don’t have root powers, like the drivers and upsd, write their pid',
        'files here. By default this is whatever the statepath (below) is.',
      ]),
      ...lines(57, 643, ['The NUT_ALTPIDPATH environment variable overrides this at run time.']),
      { text: '--with-statepath=PATH', x: 57, y: 616, width: 125, size: 10 },
      ...lines(57, 589, [
        'Change the default location of the state sockets created by the drivers to interact with',
        'the data server upsd. Default is /var/state/ups.',
      ]),
      ...lines(57, 559, ['The NUT_STATEPATH environment variable overrides this at run time.']),
      { text: 'H.6 Things the compiler might need to find', x: 57, y: 525, width: 220, size: 10.8 },
      ...lines(57, 500, ['Plain prose under the next title, which runs on', 'over a second line.']),
    ];
    expect(pageText(runs).split('\n\n')).toEqual([
      '--with-altpidpath=PATH',
      ': Programs that normally don’t have root powers, like the drivers and upsd, write their pid files here. By default this is whatever the statepath (below) is.',
      ': The NUT_ALTPIDPATH environment variable overrides this at run time.',
      '--with-statepath=PATH',
      ': Change the default location of the state sockets created by the drivers to interact with the data server upsd. Default is /var/state/ups.',
      ': The NUT_STATEPATH environment variable overrides this at run time.',
      'H.6 Things the compiler might need to find',
      'Plain prose under the next title, which runs on over a second line.',
    ]);
  });

  it('makes a key=value line with its default the term of the paragraphs describing it', () => {
    // The listings guide's reference, as its page reads into paragraphs: the key with its value's
    // placeholder and, after a gap, its default; the description indented under it, a paragraph
    // of its own; the next key.
    const paragraph = (text: string, x: number, y: number): PdfParagraph => ({
      lines: [{ text, x, y, size: 10 }],
    });
    const paragraphs = [
      paragraph('numbersep=〈dimension〉 10pt', 145, 700),
      paragraph('is the distance between number and listing.', 170, 685),
      paragraph('numberblanklines=〈true|false〉 true', 145, 665),
      paragraph('If this is set to false, blank lines get no printed line number.', 170, 650),
    ];
    expect(textOf(paragraphs).split('\n\n')).toEqual([
      'numbersep=〈dimension〉 10pt',
      ': is the distance between number and listing.',
      'numberblanklines=〈true|false〉 true',
      ': If this is set to false, blank lines get no printed line number.',
    ]);
  });

  it('leaves an option line above a listing, or an option named in prose, as it reads', () => {
    const runs = [
      { text: '--with-drivers=apcsmart', x: 57, y: 700, width: 130, size: 10 },
      { text: './configure --with-drivers=apcsmart,usbhid-ups', x: 57, y: 673, width: 250, size: 10 },
      ...lines(57, 646, [
        'Use --with-user to change the account the drivers run',
        'as, and --with-group its group.',
      ]),
    ];
    expect(pageText(runs).split('\n\n')).toEqual([
      '--with-drivers=apcsmart',
      './configure --with-drivers=apcsmart,usbhid-ups',
      'Use --with-user to change the account the drivers run as, and --with-group its group.',
    ]);
  });

  it('starts a list item at each bullet, on a page of one-line paragraphs whose usual gap is wider than the list’s', () => {
    // DBLaTeX: one-line paragraphs 18 points apart, list items 20 apart, the last item wrapping
    // at 12 with its text indented past the bullet.
    const runs = [
      ...lines(57, 700, ['Use the NUT Users mailing list.']),
      ...lines(57, 682, ['In this case, be sure to include the following information:']),
      ...lines(57, 656, ['• OS name and version,']),
      ...lines(57, 636, ['• exact NUT version,']),
      ...lines(57, 616, ['• complete problem description, and driver debug output. You can obtain the']),
      ...lines(65, 604, ['latter using the following command: /path/to/driver -DD -a <upsname>']),
      ...lines(57, 568, ['If you don’t include the above information, we will not be able to help you!']),
      ...lines(57, 550, ['Refer to the NUT Developer Guide for more information.']),
    ];
    const paragraphs = pageText(runs).split('\n\n');
    expect(paragraphs).toContain('• OS name and version,');
    expect(paragraphs).toContain('• exact NUT version,');
    expect(paragraphs).toContain(
      '• complete problem description, and driver debug output. You can obtain the latter using the following command: /path/to/driver -DD -a <upsname>',
    );
  });

  it('reads a bullet that the font maps to a control character as a bullet', () => {
    // The GNU Prolog manual (a LaTeX PDF) draws its bullets from a Type 3 font without Unicode
    // names: pdf.js (and pdftotext) read each as U+0088, a run of its own left of the item's text.
    const bullet = (y: number): PositionedText => ({ text: '\u0088', x: 80, y, width: 5, size: 10 });
    const runs = [
      ...lines(70, 700, ['Ports can also be an atom defining a shorthand:']),
      bullet(680),
      ...lines(90, 680, ['full: equivalent to [call, exit, redo, fail, exception]']),
      bullet(660),
      ...lines(90, 660, ['half: equivalent to [call, redo]']),
      ...lines(70, 630, ['When an unleashed port is encountered the debugger continues.']),
    ];
    expect(pageText(runs).split('\n\n')).toEqual([
      'Ports can also be an atom defining a shorthand:',
      '• full: equivalent to [call, exit, redo, fail, exception]',
      '• half: equivalent to [call, redo]',
      'When an unleashed port is encountered the debugger continues.',
    ]);
  });

  it('makes each term of a definition list hanging out of its indented description the term it defines', () => {
    // htmldoc's X resources: 11-point lines 13.2 apart, no space between entries, each term at
    // x 72 and its description, option and default at x 108; prose at x 72 after a wider gap.
    const entry = (term: string, description: string[]) => [term, ...description];
    const texts = [
      entry('pheight (Height)', [
        'Set the height of the canvas.',
        'Option: -pheight',
        'Default: 8.5 (inches)',
      ]),
      entry('pwidth (Width)', [
        'Set the width of the canvas, in inches or centimeters',
        'depending on the selected unit.',
        'Option: -pwidth',
        'Default: 11 (inches)',
      ]),
      entry('rulerthick (RulerThick)', ['Set the thickness of top and side rulers.', 'Default: 24 (pixels)']),
    ].flat();
    const terms = new Set(['pheight (Height)', 'pwidth (Width)', 'rulerthick (RulerThick)']);
    const runs: PositionedText[] = texts.map((text, i) => ({
      text,
      x: terms.has(text) ? 72 : 108,
      y: 700 - 13.2 * i,
      width: text.length * 5.5,
      size: 11,
    }));
    const after = 'Other resources are described in the next section of this chapter.';
    runs.push({
      text: after,
      x: 72,
      y: 700 - 13.2 * texts.length - 13.2,
      width: after.length * 5.5,
      size: 11,
    });
    expect(pageText(runs).split('\n\n')).toEqual([
      'pheight (Height)\n: Set the height of the canvas. Option: -pheight Default: 8.5 (inches)',
      'pwidth (Width)\n: Set the width of the canvas, in inches or centimeters depending on the selected unit. Option: -pwidth Default: 11 (inches)',
      'rulerthick (RulerThick)\n: Set the thickness of top and side rulers. Default: 24 (pixels)',
      after,
    ]);
  });

  it('makes a short term beside the first line of its description the term that description defines', () => {
    // Texinfo's @table in a PDF: 10.9-point lines 13.1 apart, entries 18.6 apart; a short term at
    // x 90 with its description beside it at x 147.6 and the description's other lines under it; a
    // long term on a line of its own above its description.
    const entries: { term: string; description: string[] }[] = [
      { term: 'PS0', description: ['The value of this parameter is expanded like PS1 and displayed.'] },
      {
        term: 'PS3',
        description: [
          'The value of this variable is used as the prompt for the select command. If',
          'this variable is not set, the select command prompts with ‘#? ’',
        ],
      },
      { term: 'READLINE_ARGUMENT', description: ['Any numeric argument given to a Readline command.'] },
    ];
    const runs: PositionedText[] = [];
    let y = 700;
    for (const { term, description } of entries) {
      const long = term.length > 10;
      runs.push({ text: term, x: 90, y, width: term.length * 5.5, size: 10.9 });
      if (long) y -= 13.1;
      description.forEach((text, i) => {
        runs.push({ text, x: 147.6, y: y - 13.1 * i, width: text.length * 5, size: 10.9 });
      });
      y -= 13.1 * (description.length - 1) + 18.6;
    }
    expect(pageText(runs).split('\n\n')).toEqual([
      'PS0\n: The value of this parameter is expanded like PS1 and displayed.',
      'PS3\n: The value of this variable is used as the prompt for the select command. If this variable is not set, the select command prompts with ‘#? ’',
      'READLINE_ARGUMENT\n: Any numeric argument given to a Readline command.',
    ]);
  });

  it('makes a Texinfo definition line, its category at the right margin, the term its description defines', () => {
    // Texinfo's @defmac in a PDF: the name and its arguments at x 90 in 12-point type, "[Macro]"
    // flush with the right margin (x 522), the description at x 118.8 under it.
    const runs = [
      line('AC_INIT (package, version, [bug-report], [tarname], [url])', 90, 700, 12),
      { text: '[Macro]', x: 487, y: 700, width: 35, size: 12 },
      line('Process any command-line arguments and perform initialization and verification.', 118.8, 686.9),
      line('It defaults to package with ‘GNU ’ stripped and lower-cased.', 118.8, 673.8),
    ];
    expect(pageText(runs)).toBe(
      'AC_INIT (package, version, [bug-report], [tarname], [url]) [Macro]\n' +
        ': Process any command-line arguments and perform initialization and verification. ' +
        'It defaults to package with ‘GNU ’ stripped and lower-cased.',
    );
  });

  it('makes the names an entry stacks above its description, an option with its value among them, one term', () => {
    // Texinfo's @item and @itemx: "--trace=macro[:format]" over "-t macro[:format]" at x 90, the
    // description at x 147.6 below them.
    const runs = [
      line('--trace=macro[:format]', 90, 700),
      line('-t macro[:format]', 90, 686.9),
      line('Do not create the configure script, but list the calls to macro according to', 147.6, 673.8),
      line('the format.', 147.6, 660.7),
    ];
    expect(pageText(runs)).toBe(
      '--trace=macro[:format], -t macro[:format]\n' +
        ': Do not create the configure script, but list the calls to macro according to the format.',
    );
  });

  it("makes an option's synopsis with its placeholders the term of the description indented under it", () => {
    // Sphinx's LaTeX option lists (the Why3 manual): 10-point type, each option at x 72 in bold with
    // its placeholder in a second run ("--smoke-detector" then "[=none|top|deep]"), the description
    // at x 96.9 under it; one option list follows the sentence ending a paragraph at the same margin.
    const run = (text: string, x: number, y: number, width = text.length * 5): PositionedText => ({
      text,
      x,
      y,
      width,
      size: 9.96,
    });
    const runs = [
      run('Note the use of why3 -L, in order to state where to look for file f.mlw.', 72, 400),
      run('-o <file|dir>', 72, 388),
      run('Output extracted code to the given file or directory.', 96.9, 373.1),
      run('Options are:', 72, 312.8),
      run('--smoke-detector', 72, 294.9, 83.7),
      run('[=none|top|deep]', 155.7, 294.9),
      run('Try to detect if the context is self-contradicting (default: top).', 96.9, 280),
      run('-v <lvl>, --verbosity=<lvl>', 72, 262),
      run(
        'Verbosity level for interpretation log of counterexample model. By default, the level is set to 4.',
        96.9,
        247.1,
      ),
      run('--meta=<meta>', 72, 229.2, 65.2),
      run('[=<string>]', 137.2, 229.2),
      run('Add a meta to every task.', 96.9, 214.2),
      run('-g [<file>][:<line>][@<expl>], --sub-goal=[<file>][:<line>][@<expl>]', 72, 196.3),
      run('Retain only sub-goals at the given location.', 96.9, 181.3),
    ];
    expect(pageText(runs).split('\n\n')).toEqual([
      'Note the use of why3 -L, in order to state where to look for file f.mlw.',
      '-o <file|dir>\n: Output extracted code to the given file or directory.',
      'Options are:',
      '--smoke-detector[=none|top|deep]\n: Try to detect if the context is self-contradicting (default: top).',
      '-v <lvl>, --verbosity=<lvl>\n: Verbosity level for interpretation log of counterexample model. By default, the level is set to 4.',
      '--meta=<meta>[=<string>]\n: Add a meta to every task.',
      '-g [<file>][:<line>][@<expl>], --sub-goal=[<file>][:<line>][@<expl>]\n: Retain only sub-goals at the given location.',
    ]);
  });

  it('keeps a two-column table whose rows hold a term beside its text as rows', () => {
    const rows = [
      ['-S', 'Change and report the soft limit.'],
      ['-H', 'Change and report the hard limit.'],
    ];
    const runs = rows.flatMap(([term, text], i) => [
      { text: term!, x: 90, y: 700 - 13.1 * i, width: 10, size: 10.9 },
      { text: text!, x: 147.6, y: 700 - 13.1 * i, width: text!.length * 5, size: 10.9 },
    ]);
    expect(pageText(runs)).toBe(
      '-S | Change and report the soft limit.\n\n-H | Change and report the hard limit.',
    );
  });

  it('takes a term above a justified description whose lines hold a wide word gap', () => {
    // Texinfo's Readline variables: the term at x 147.6, its description at x 205.2, justified to
    // x 522 so that a line's last word may stand apart ("… should be displayed. If").
    const justified = (text: string, x: number, y: number, end = 522): PositionedText => ({
      text,
      x,
      y,
      width: end - x,
      size: 10.9,
    });
    const runs = [
      justified('completion-query-items', 147.6, 131.8, 273.6),
      justified('The number of possible completions that determines when the user', 205.2, 118.7),
      justified('is asked whether the list of possibilities should be displayed.', 205.2, 105.5, 505.5),
      justified('If', 514.7, 105.5),
      justified('The default limit is 100.', 205.2, 92.4, 348.8),
    ];
    expect(pageText(runs)).toBe(
      'completion-query-items\n: The number of possible completions that determines when the user is asked ' +
        'whether the list of possibilities should be displayed. If The default limit is 100.',
    );
  });

  it('keeps the rows of a table under a header row as they read, each spaced as a paragraph', () => {
    // GnuCash's menu tables: "Menu Item", a gap, "Description" centred over its column, then rows
    // 16.5 points apart, an item beside its description.
    const rows = [
      ['Menu Item', 'Description'],
      ['New Window', 'Opens a new GnuCash empty window.'],
      ['New Window with Page', 'Moves the current tab into a new window.'],
    ];
    const intro = [
      'The Windows menu of the account tree holds the following items, which open new windows',
      'or arrange the windows of GnuCash; each item is described beside it in the table below,',
      'with the keyboard shortcut that opens it when it has one.',
    ];
    const runs = [
      ...lines(122, 720, intro),
      ...rows.flatMap(([item, text], i) => [
        { text: item!, x: 122, y: 660 - 16.5 * i, width: item!.length * 5, size: 10 },
        { text: text!, x: i === 0 ? 410 : 332, y: 660 - 16.5 * i, width: text!.length * 5, size: 10 },
      ]),
    ];
    expect(pageText(runs).split('\n\n')).toEqual([
      intro.join(' '),
      'Menu Item Description',
      'New Window Opens a new GnuCash empty window.',
      'New Window with Page Moves the current tab into a new window.',
    ]);
  });

  it('continues a description with its later paragraphs, after nested entries and on the next page', () => {
    // Texinfo: TIMEFORMAT's description at x 147.6, its nested %-codes beside their meanings, then
    // a paragraph at the description's margin; the next page opens with the description going on.
    const page = [
      line('TIMEFORMAT', 90, 467),
      line('The value of this parameter is used as a format string for timing.', 147.6, 454),
      line('%%', 147.6, 434),
      line('A literal ‘%’.', 205.2, 434),
      line('If this variable is not set, Bash acts as if it had the value', 147.6, 414),
      line('$’\\nreal\\t%3lR’', 176.4, 401),
      line('TMOUT', 90, 381),
      line('If set to a value greater than zero, TMOUT is the default timeout and the', 147.6, 381),
      line('select command terminates if input does not arrive after TMOUT seconds.', 147.6, 368),
    ];
    const next = [
      line('Chapter 5: Shell Variables', 90, 733),
      line('when input is coming from a terminal, and the read builtin times out after', 147.6, 684),
      line('TMOUT seconds as well.', 147.6, 671),
      line('Variables set in the environment are passed on to the commands the shell', 90, 651),
      line('runs, and exported ones to their children.', 90, 638),
    ];
    const terms: TermContext = { open: [] };
    const first = textOf(pageParagraphs(page), terms);
    expect(first.split('\n\n')).toEqual([
      'TIMEFORMAT\n: The value of this parameter is used as a format string for timing.',
      'TIMEFORMAT\n: %% A literal ‘%’.',
      'TIMEFORMAT\n: If this variable is not set, Bash acts as if it had the value $’\\nreal\\t%3lR’',
      'TMOUT\n: If set to a value greater than zero, TMOUT is the default timeout and the select command terminates if input does not arrive after TMOUT seconds.',
    ]);
    expect(textOf(pageParagraphs(next), terms).split('\n\n')).toEqual([
      'Chapter 5: Shell Variables',
      'TMOUT\n: when input is coming from a terminal, and the read builtin times out after TMOUT seconds as well.',
      'Variables set in the environment are passed on to the commands the shell runs, and exported ones to their children.',
    ]);
  });

  it('takes a menu entry ending in an ellipsis above its indented description for a term', () => {
    const texts = [
      'Search/Replace...',
      'Popup panel to search and/or replace strings.',
      'The accelerator Meta-I will also do this.',
    ];
    const runs = texts.map((text, i) => ({
      text,
      x: i === 0 ? 81 : 108,
      y: 700 - 13.2 * i,
      width: text.length * 5.5,
      size: 11,
    }));
    expect(pageText(runs)).toBe(`${texts[0]}\n: ${texts.slice(1).join(' ')}`);
  });

  it('writes each paragraph of a run-in setting entry under its setting, on the next page too', () => {
    // A LaTeX description list of directives (Bacula's manual): 10-point lines 12 apart, each item
    // 20 points below the last, its setting run in at x 72 before its description, the lines
    // below hanging at x 96.9 and its later paragraphs there too, 16 points below. The page ends
    // inside the second item, which goes on below the next page's running header.
    const items: { first: string; hanging: string[][] }[] = [
      {
        first: 'FD Port = <port-number> Where the port is a port number at which the',
        hanging: [['Bacula File server daemon can be contacted. The default is 9102.']],
      },
      {
        first: 'File Retention = <time-period-specification> The File Retention directive defines',
        hanging: [
          ['the length of time that Bacula will keep File records in the Catalog database.'],
          [
            'File records may actually be retained for a shorter period than you specify',
            'on this directive.',
          ],
        ],
      },
    ];
    const runs: PositionedText[] = [];
    let y = 700;
    const put = (text: string, x: number, gap: number) => {
      y -= gap;
      runs.push({ text, x, y, width: text.length * 5, size: 10 });
    };
    for (const { first, hanging } of items) {
      put(first, 72, 20);
      hanging.forEach((paragraph, p) =>
        paragraph.forEach((text, l) => put(text, 96.9, p > 0 && l === 0 ? 16 : 12)),
      );
    }
    const next = [
      { text: 'Bacula Version 9.6.7 219', x: 72, y: 790 },
      { text: 'The default is 60 days.', x: 96.9, y: 766 },
      { text: 'Job Retention = <time-period-specification> The Job Retention directive', x: 72, y: 746 },
      { text: 'defines the length of time that Bacula will keep Job records in the', x: 96.9, y: 734 },
      { text: 'Catalog database after the Job End time.', x: 96.9, y: 722 },
      { text: 'The retention periods and how they interact are described in the', x: 72, y: 702 },
      { text: 'next chapter of this manual.', x: 72, y: 690 },
    ].map((run) => ({ ...run, width: run.text.length * 5, size: 10 }));
    const tables: TableContext = { paragraphs: 0 };
    const terms: TermContext = { open: [] };
    const pages = [runs, next].map((page) => textOf(pageParagraphs(page, tables), terms).split('\n\n'));
    const retention = 'File Retention = <time-period-specification>';
    expect(pages[0]).toEqual([
      'FD Port = <port-number>\n: Where the port is a port number at which the Bacula File server daemon can be contacted. The default is 9102.',
      `${retention}\n: The File Retention directive defines the length of time that Bacula will keep File records in the Catalog database.`,
      `${retention}\n: File records may actually be retained for a shorter period than you specify on this directive.`,
    ]);
    expect(pages[1]).toEqual([
      'Bacula Version 9.6.7 219',
      `${retention}\n: The default is 60 days.`,
      'Job Retention = <time-period-specification>\n: The Job Retention directive defines the length of time that Bacula will keep Job records in the Catalog database after the Job End time.',
      'The retention periods and how they interact are described in the next chapter of this manual.',
    ]);
  });

  it('opens no run-in entry at a line of prose above an indented example', () => {
    // gnuplot's manual: a one-line paragraph holding `y=x`, then the example indented below it.
    const runs = [
      { text: 'The plot command draws functions and data with the style and title', x: 72, y: 700 },
      { text: 'given to it, each after the other, and it sets the ranges from the', x: 72, y: 688 },
      { text: 'data unless they have been set before.', x: 72, y: 676 },
      { text: 'This plots y=x with the title x and a line width of two:', x: 72, y: 656 },
      { text: 'plot x title "x" lw 2', x: 96, y: 636 },
      { text: 'The next example plots the sine of x with the same title and a line', x: 72, y: 616 },
      { text: 'width of three.', x: 72, y: 604 },
    ].map((run) => ({ ...run, width: run.text.length * 5, size: 10 }));
    expect(pageText(runs)).not.toContain('\n: ');
  });

  it('keeps a listing whose lines indent a block, and prose with a first-line indent, as they read', () => {
    // 10-point lines 12 apart: code with a body indented 4 characters, then a paragraph whose first
    // line is indented 15 points, one after the other without space.
    const code = [
      { text: 'def hello(c):', x: 72 },
      { text: 'c.drawString(100, 100, "Hello World")', x: 96 },
      { text: 'c = canvas.Canvas("hello.pdf")', x: 72 },
      { text: 'hello(c)', x: 72 },
    ];
    const prose = [
      { text: 'The canvas is the page the drawing operations paint on.', x: 87 },
      { text: 'Its origin is the lower left corner of the page.', x: 72 },
    ];
    const runs = [...code, ...prose].map(({ text, x }, i) => ({
      text,
      x,
      y: 700 - 12 * i,
      width: text.length * 5,
      size: 10,
    }));
    expect(pageText(runs)).toBe([...code, ...prose].map(({ text }) => text).join(' '));
  });

  it('keeps one-line cells centred beside two-line cells with their row, not as a flow of their own', () => {
    // Rows 30 points apart: "Y" and "-" centred 6 points below the first line of the third cell.
    const runs = [
      ['Y', '-', 'No password required when opening file.', 'Restrictions apply to everyone.'],
      ['-', 'Y', 'User password required when opening file.', 'Restrictions apply to everyone.'],
      ['Y', 'Y', 'A password required when opening file.', 'Restrictions apply only if supplied.'],
    ].flatMap(([owner, user, first, second], i) => [
      { text: owner as string, x: 84, y: 715 - 30 * i, width: 7, size: 10 },
      { text: user as string, x: 174, y: 715 - 30 * i, width: 7, size: 10 },
      { text: first as string, x: 264, y: 721 - 30 * i, width: 180, size: 10 },
      { text: second as string, x: 264, y: 709 - 30 * i, width: 140, size: 10 },
    ]);
    // The short cells stand a row apart: no running text, so they are not read after the descriptions.
    expect(pageText(runs)).not.toMatch(/^[-Y |]+$/m);
    expect(pageText(runs)).toContain('No password required when opening file. Y - Restrictions');
  });

  it('separates runs on one line by a space only where there is a gap', () => {
    const runs = [
      { text: 'Hydro', x: 50, y: 700, width: 25, size: 10 },
      { text: 'static', x: 75, y: 700, width: 30, size: 10 },
      { text: 'pressure', x: 108, y: 700, width: 40, size: 10 },
    ];
    expect(pageText(runs)).toBe('Hydrostatic pressure');
  });

  it('writes a raised smaller run after a ^, on the line of its base', () => {
    // A LaTeX scale-factor table: 12-point cells, 9-point exponents raised 4.3 points.
    const runs = [
      ...[
        ['T', 'Tera', '10', '12'],
        ['m', 'milli', '10', '−', '3'],
      ].flatMap(([suffix, name, base, ...exponent], i) => {
        const y = 620 - 15 * i;
        let x = 340;
        return [
          { text: suffix as string, x: 238, y, width: 8, size: 12 },
          { text: name as string, x: 272, y, width: 22, size: 12 },
          { text: base as string, x: 328, y, width: 12, size: 12 },
          ...exponent.map((text) => {
            const run = { text, x, y: y + 4.3, width: 4.5 * text.length, size: 9 };
            x += run.width;
            return run;
          }),
        ];
      }),
      // A unit with a squared centimetre, the exponent above the cell's baseline.
      { text: 'UO', x: 238, y: 590, width: 17, size: 12 },
      { text: 'cm', x: 304.6, y: 592, width: 10.5, size: 9 },
      { text: '2', x: 315, y: 595.2, width: 3.5, size: 7 },
      { text: '/V·sec', x: 318.5, y: 590, width: 25, size: 9 },
    ];
    expect(pageText(runs)).toBe('T | Tera | 10^12\n\nm | milli | 10^−3\n\nUO | cm^2/V·sec');
  });

  it('leaves out margin notes set small beside the text, reading its paragraph whole', () => {
    // A LaTeX guide: 10.9-point text from x 61, 13.5 points apart; 6-point version tags in the
    // left margin on the baselines of the lines they annotate, and a 9-point class tag on two
    // lines between the text's baselines.
    const text = [
      'Landscape orientations are supported by specifying the option one more time with the value',
      'landscape or seascape. The only difference between landscape and seascape is that the',
      'application dvips rotates landscape pages by -90 degrees, while it rotates seascape pages',
      'by +90 degrees. Thus seascape is useful whenever a viewer shows landscape pages upside-down.',
      'You can also use the value semi. This value results in two-sided printing with one-sided',
      'margins and one-sided, that is non-alternating, marginal notes, beginning with version 3.12.',
      'Further lines of the paragraph run on as before without any note beside them at all here,',
      'More lines follow, as on any page of the guide, to fill the text block of the page with',
      'the lines of running text that a page holds, set in the same font and size and starting',
      'at the same margin on the left, as every line of text on a page of the guide does, while',
      'the notes stand in the margin. The last line of the paragraph ends it.',
    ];
    const runs: PositionedText[] = [
      ...text.map((line, i) => ({ text: line, x: 61, y: 500 - 13.5 * i, width: 444, size: 10.9 })),
      { text: 'v3.00', x: 28, y: 500, width: 17, size: 6 },
      { text: 'v3.02c', x: 24, y: 473, width: 21, size: 6 },
      { text: 'v3.02c', x: 24, y: 459.5, width: 21, size: 6 },
      { text: 'scrbook,', x: 16, y: 446, width: 32, size: 9 },
      { text: 'scrreprt', x: 19, y: 435, width: 29, size: 9 },
      { text: 'v3.12', x: 28, y: 432.5, width: 17, size: 6 },
    ];
    expect(pageText(runs)).toBe(text.join(' '));
  });

  it('keeps a footnote mark set beside its footnote', () => {
    // Body text from x 120; footnotes at the left edge, 8 points, each after a raised 6-point mark.
    const runs: PositionedText[] = [
      ...Array.from({ length: 10 }, (_, i) => ({
        text: `Body line ${i + 1} of the page, set from the indented margin of the text.`,
        x: 120,
        y: 500 - 12 * i,
        width: 380,
        size: 10,
      })),
      { text: '7', x: 72, y: 366.6, width: 3, size: 6 },
      { text: 'Since version 1.41 the default source is hardcoded.', x: 75, y: 363, width: 250, size: 8 },
      { text: '8', x: 72, y: 347.4, width: 3, size: 6 },
      { text: 'The old currencies are still available.', x: 75, y: 343.8, width: 180, size: 8 },
    ];
    expect(pageText(runs)).toMatch(/^7$/m);
    expect(pageText(runs)).toMatch(/^8$/m);
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

  it('label each row by a first row of capitalised words over a column of suffixes or lowercase names', () => {
    // The GNU Prolog manual's table of file types: no figures below the header, whose last
    // column's name ends with a colon ("Handled by:"), written once before its cell.
    const runs = [
      ...row(700, [
        [90, 'Suffix of the file'],
        [200, 'Type of the file'],
        [400, 'Handled by:'],
      ]),
      ...row(687, [
        [90, '.pl, .pro, .prolog'],
        [200, 'Prolog source file'],
        [400, 'pl2wam'],
      ]),
      ...row(674, [
        [90, '.wam'],
        [200, 'WAM source file'],
        [400, 'wam2ma'],
      ]),
      ...row(661, [
        [90, '.fd'],
        [200, 'Finite Domain constraint source file'],
        [400, 'fd2c'],
      ]),
    ];
    expect(pageText(runs).split('\n\n')).toEqual([
      'Suffix of the file: .pl, .pro, .prolog | Type of the file: Prolog source file | Handled by: pl2wam',
      'Suffix of the file: .wam | Type of the file: WAM source file | Handled by: wam2ma',
      'Suffix of the file: .fd | Type of the file: Finite Domain constraint source file | Handled by: fd2c',
    ]);
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

  // A LaTeX parameter table: a header row, rows 14.8 points apart, wrapped lines 14.4 points below.
  const HEADER: [number, string][] = [
    [77, 'Name'],
    [119, 'Parameter'],
    [273, 'Units'],
    [312, 'Default'],
    [361, 'Example'],
    [418, 'Scale factor'],
  ];

  it('under a header, keep a wrapped cell in its column and its row', () => {
    const runs = [
      ...row(736, HEADER),
      ...row(719, [
        [77, 'LM'],
        [119, 'Length of metal capacitor'],
        [282, 'm'],
        [323, '0.0'],
        [373, '4um'],
        [418, 'SCALE'],
      ]),
      ...row(704, [
        [77, 'LP'],
        [119, 'Length of polysilicon'],
        [282, 'm'],
        [323, '0.0'],
        [373, '5um'],
        [418, 'SCALE'],
      ]),
      ...row(689.6, [[119, 'capacitor']]),
      ...row(674.8, [
        [77, 'XOI'],
        [119, 'Thickness of the polysilicon'],
        [282, 'm'],
        [317, '1e-06'],
        [381, '-'],
      ]),
      ...row(660.4, [[119, 'to bulk oxide']]),
    ];
    expect(pageText(runs).split('\n\n').slice(1)).toEqual([
      'Name: LP | Parameter: Length of polysilicon capacitor | Units: m | Default: 0.0 | Example: 5um | Scale factor: SCALE',
      'Name: XOI | Parameter: Thickness of the polysilicon to bulk oxide | Units: m | Default: 1e-06 | Example: -',
    ]);
  });

  it('under a header, join a cell wrapped halfway between two rows set without space to the row above', () => {
    // DBLaTeX's naming tables (NUT): rows 12 points apart, the wrapped line 12.0 below its row
    // and 11.9 above the next.
    const runs = [
      ...row(272.7, [
        [68, 'Name'],
        [235, 'Description'],
        [430, 'Example value'],
      ]),
      ...row(260.7, [
        [68, 'battery.charge'],
        [235, 'Battery charge (percent)'],
        [430, '100.0'],
      ]),
      ...row(248.8, [
        [68, 'battery.charge.low'],
        [235, 'Remaining battery level when UPS'],
        [430, '20'],
      ]),
      ...row(236.8, [[235, 'switches to LB (percent)']]),
      ...row(224.9, [
        [68, 'battery.charge.restart'],
        [235, 'Minimum battery level for UPS restart'],
        [430, '20'],
      ]),
      ...row(212.9, [[235, 'after power-off']]),
    ];
    expect(pageText(runs).split('\n\n')).toEqual([
      'Name: battery.charge | Description: Battery charge (percent) | Example value: 100.0',
      'Name: battery.charge.low | Description: Remaining battery level when UPS switches to LB (percent) | Example value: 20',
      'Name: battery.charge.restart | Description: Minimum battery level for UPS restart after power-off | Example value: 20',
    ]);
  });

  it('under a header, leave out the label of an empty cell instead of shifting the next cells', () => {
    const runs = [
      ...row(736, HEADER.slice(0, 5)),
      ...row(719, [
        [77, 'TNOM'],
        [119, 'parameter measurement temperature'],
        [280, '°C'],
        [323, '27'],
        [373, '50'],
      ]),
      ...row(704, [
        [77, 'KF'],
        [119, 'flicker noise coefficient'],
        [323, '0.0'],
        [370, '1e-25'],
      ]),
      ...row(689, [
        [77, 'WF'],
        [119, 'flicker noise width exponent'],
        [323, '1.0'],
      ]),
    ];
    expect(pageText(runs).split('\n\n').slice(1)).toEqual([
      'Name: KF | Parameter: flicker noise coefficient | Default: 0.0 | Example: 1e-25',
      'Name: WF | Parameter: flicker noise width exponent | Default: 1.0',
    ]);
  });

  it('under a header, give a row the values stacked one per case around its baseline', () => {
    const runs = [
      ...row(431, HEADER.slice(0, 5)),
      ...row(414, [
        [373, '1.11'],
        [398, 'Si'],
      ]),
      ...row(399.6, [
        [77, 'EG'],
        [119, 'Activation energy'],
        [280, 'eV'],
        [323, '1.11'],
        [373, '0.69'],
        [398, 'Sbd'],
      ]),
      ...row(385.2, [
        [373, '0.67'],
        [398, 'Ge'],
      ]),
      ...row(370.4, [
        [77, 'TNOM'],
        [119, 'Parameter measurement'],
        [280, '°C'],
        [323, '27'],
        [373, '50'],
      ]),
      ...row(356, [[119, 'temperature']]),
    ];
    expect(pageText(runs).split('\n\n')).toEqual([
      'Name: EG | Parameter: Activation energy | Units: eV | Default: 1.11 | Example: 1.11 Si 0.69 Sbd 0.67 Ge',
      'Name: TNOM | Parameter: Parameter measurement temperature | Units: °C | Default: 27 | Example: 50',
    ]);
  });

  it('label the rows of a table continued at the top of the next page with the header of the page before', () => {
    const tables: TableContext = { paragraphs: 0 };
    const values = (y: number, name: string, text: string, units: string, value: string): PositionedText[] =>
      row(y, [
        [80, name],
        [119, text],
        [282, units],
        [323, value],
      ]);
    const first = [
      ...row(736, HEADER.slice(0, 4)),
      ...values(719, 'RE', 'Emitter resistance', 'Ω', '0'),
      ...values(704, 'RC', 'Collector resistance', 'Ω', '0'),
    ];
    const next = [
      ...row(813, [
        [71, '140'],
        [431, 'CHAPTER 8. BJT'],
      ]),
      ...values(763, 'CJE', 'B-E zero-bias depletion', 'F', '0'),
      ...row(748.6, [[119, 'capacitance']]),
      ...values(733.8, 'VJE', 'B-E built-in potential', 'V', '0.75'),
    ];
    textOf(pageParagraphs(first, tables));
    expect(textOf(pageParagraphs(next, tables)).split('\n\n').slice(1)).toEqual([
      'Name: CJE | Parameter: B-E zero-bias depletion capacitance | Units: F | Default: 0',
      'Name: VJE | Parameter: B-E built-in potential | Units: V | Default: 0.75',
    ]);
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

  it('drop a footer naming the section of the page before its own number, however few pages it runs on', () => {
    // htmldoc: the footer is the heading of the section the page is in, then the file's page number.
    const footed = [
      'Command-line Options\n\nxfig will accept the following options.\n\nMode Settings 1',
      '-grid_unit unit (-grid_u)\n: Set the unit of the grid.\n\nMode Settings 2',
      '-center (-cente)\n: Select Center as Justification.\n\nPRINT and EXPORT Settings 3',
      '-boldFont font (-bol)\n: Set the font used to display file names.\n\nSetting of Fonts or Colors, etc. 4',
      'The paper sizes are listed below, 17 of them.\n\nISO A4 is 210 x 297 mm.\n\nOther Settings 5',
      'Xfig may be compiled to use smaller icons.\n\nAll options take up to 12 letters',
    ];
    expect(withoutRunningLines(footed)).toEqual([
      'Command-line Options\n\nxfig will accept the following options.',
      '-grid_unit unit (-grid_u)\n: Set the unit of the grid.',
      '-center (-cente)\n: Select Center as Justification.',
      '-boldFont font (-bol)\n: Set the font used to display file names.',
      'The paper sizes are listed below, 17 of them.\n\nISO A4 is 210 x 297 mm.',
      'Xfig may be compiled to use smaller icons.\n\nAll options take up to 12 letters',
    ]);
  });

  it("drop a two-sided book's section footers, its number first on left-hand pages and last on right-hand ones", () => {
    // Sphinx's LaTeX: left-hand pages open with "74 Chapter 6. …", right-hand ones close with the
    // section then the number, a section's footer on fewer pages than a running line's three.
    const book = [
      '72 Chapter 6. Reference Manuals for the Why3 Tools\n\nOptions are:',
      'The why3 replay command is meant to execute the proofs.\n\n6.4. The replay Command 73',
      '74 Chapter 6. Reference Manuals for the Why3 Tools\n\n--force\n: Enforce saving the session.',
      'The why3 session html command produces a summary.\n\n6.5. The session Command 75',
      '76 Chapter 6. Reference Manuals for the Why3 Tools\n\n--style=<n>\n: Set output style (1 or 2, default 1).',
      'The why3 doc command can produce HTML pages.\n\n6.6. The doc Command 77',
      '78 Chapter 6. Reference Manuals for the Why3 Tools\n\nThe pp command pretty-prints declarations.',
    ];
    expect(withoutRunningLines(book)).toEqual([
      'Options are:',
      'The why3 replay command is meant to execute the proofs.',
      '--force\n: Enforce saving the session.',
      'The why3 session html command produces a summary.',
      '--style=<n>\n: Set output style (1 or 2, default 1).',
      'The why3 doc command can produce HTML pages.',
      'The pp command pretty-prints declarations.',
    ]);
  });

  it('are dropped from every page, numbers aside, with lone page numbers', () => {
    expect(withoutRunningLines(pages)).toEqual([
      '1 Obtaining R\n\nSources can be obtained via CRAN.',
      'The tarballs are available daily.\n\nSee the FAQ.',
      'Use rsync to fetch the recommended packages.',
      'Checking the sources takes a while.',
      '2 Installing R\n\nRun configure, then make.',
      // On one page only, but ending in the page's number as the other running lines do.
      'See the FAQ.',
      '3 Running R\n\nR expects a stack of at least 8MB.',
    ]);
  });
});
