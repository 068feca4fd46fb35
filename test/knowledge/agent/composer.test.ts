import { describe, expect, it } from 'vitest';
import type { SearchHit } from '../../../shared/agent.js';
import {
  classifyQuestion,
  composeExtractiveAnswer,
  prepareExtractiveAnswer,
} from '../../../knowledge/agent/composer.js';
import { markdownToPlainText } from '../../../widget/markdown.js';

const hits: SearchHit[] = [
  {
    text:
      'The boundary layer thickens along the plate. Heat transfer in the boundary layer was measured with thin-film gauges. ' +
      'The tunnel ran at Mach 6.',
    score: 7.5,
    source: { documentId: 'd1', title: 'Hypersonic heat transfer', path: '/docs/heat.pdf', page: 4 },
  },
  {
    text: 'Skin friction drag dominates at low speed. Heat transfer rates doubled when the flow became turbulent.',
    score: 5.1,
    source: { documentId: 'd2', title: 'Turbulent flow notes', url: 'https://example.org/turbulence' },
  },
  {
    text: 'The cafeteria opens at noon and closes at three.',
    score: 0.4,
    source: { documentId: 'd3', title: 'Office hours' },
  },
];

const compose = (question: string, given: SearchHit[] = hits) =>
  composeExtractiveAnswer({ question, retrievalQuery: question, namespace: 'docs', hits: given });

describe('composeExtractiveAnswer', () => {
  it('quotes the sentences that answer the question, each cited with its passage number', () => {
    const answer = compose('how was heat transfer measured?');
    expect(answer.answered).toBe(true);
    expect(answer.text).toContain(
      'Heat transfer in the boundary layer was measured with thin-film gauges. [1]',
    );
    expect(answer.citations[0]).toMatchObject({
      n: 1,
      documentId: 'd1',
      page: 4,
      title: 'Hypersonic heat transfer',
    });
  });

  it('ends with a Sources list naming only the passages it cites', () => {
    const answer = compose('how was heat transfer measured?');
    const sources = answer.text.slice(answer.text.indexOf('\n\nSources:\n') + 2);
    expect(sources.split('\n')).toEqual([
      'Sources:',
      ...answer.citations.map((c) => expect.stringMatching(`^\\[${c.n}\\] `)),
    ]);
    expect(answer.citations.map((c) => c.documentId)).not.toContain('d3');
  });

  it('uses only text from the retrieved passages', () => {
    const answer = compose('heat transfer turbulent');
    const body = answer.text.slice(0, answer.text.indexOf('\n\nSources:'));
    const passages = hits.map((hit) => hit.text).join(' ');
    for (const sentence of body.split(/ \[\d+\] ?/).filter(Boolean)) expect(passages).toContain(sentence);
  });

  it('says it found nothing and names what to ingest when no passage is relevant', () => {
    const answer = compose('what is the boiling point of mercury?');
    expect(answer.answered).toBe(false);
    expect(answer.citations).toEqual([]);
    expect(answer.text).toMatch(
      /I found nothing about “what is the boiling point of mercury\?” in the knowledge namespace “docs”/,
    );
    expect(answer.text).toMatch(/Ingest documents that cover it into “docs”/);
    expect(answer.text).not.toContain('Sources:');
  });

  it('answers a long question from a passage that holds only a few of its words', () => {
    const answer = compose(
      'which flight experiments measured heat transfer on reentry capsules, rockets and missiles?',
    );
    expect(answer.answered).toBe(true);
    expect(answer.citations[0]?.documentId).toBe('d1');
  });

  it('says it found nothing when retrieval returned no passage', () => {
    expect(compose('lift', []).answered).toBe(false);
  });

  it('retells the best passage in reading order when asked to summarize', () => {
    const answer = compose('summarize the hypersonic heat transfer report');
    expect(answer.text).toMatch(
      /^The boundary layer thickens along the plate\. \[1\] Heat transfer in the boundary layer was measured with thin-film gauges\. \[1\] The tunnel ran at Mach 6\. \[1\]/,
    );
  });

  it('summarizes a document named by its title from its opening sentences', () => {
    const answer = compose('summarize Office hours');
    expect(answer.text).toContain('The cafeteria opens at noon and closes at three. [1]');
  });
});

describe('composeExtractiveAnswer on Markdown passages', () => {
  it('never quotes a heading as part of a sentence', () => {
    const answer = composeExtractiveAnswer({
      question: 'what makes lift grow?',
      retrievalQuery: 'what makes lift grow?',
      namespace: 'docs',
      hits: [
        {
          text: '# Wing design\n\nLift grows with the angle of attack until the wing stalls.',
          score: 3,
          source: { documentId: 'w', title: 'Wing design' },
        },
      ],
    });
    expect(answer.text).toMatch(/^Lift grows with the angle of attack until the wing stalls\. \[1\]/);
  });
});

/** Passages shaped as the loaders write real manuals: definitions under terms, tables as labelled rows. */
const manual = (text: string, documentId: string, heading?: string): SearchHit => ({
  text,
  score: 1,
  source: {
    documentId,
    title: `${documentId} manual`,
    ...(heading ? { heading, headingPath: [`${documentId} manual`, heading] } : {}),
  },
});

const answerTo = (question: string, given: SearchHit[]) => {
  const answer = composeExtractiveAnswer({
    question,
    retrievalQuery: question,
    namespace: 'docs',
    hits: given,
  });
  return { ...answer, body: answer.text.slice(0, answer.text.indexOf('\n\nSources:')) };
};

describe('composeExtractiveAnswer on manuals', () => {
  it('quotes the sentence after the best one in its paragraph when the answer has room for it', () => {
    const { body } = answerTo('Where does the journal option keep the record of each transaction?', [
      manual(
        'The journal option keeps a record of each transaction the server commits. ' +
          'It is appended to txn.journal beside the data files.\n\n' +
          'Replication is configured separately.',
        'storage',
        'Journal',
      ),
    ]);
    expect(body).toMatch(/keeps a record of each transaction .* \[1\] It is appended to txn\.journal/);
  });

  it("does not quote the next paragraph's opening with the best sentence", () => {
    const { body } = answerTo('Where does the journal option keep the record of each transaction?', [
      manual(
        'The journal option keeps a record of each transaction the server commits.\n\n' +
          'Replication is configured separately.',
        'storage',
        'Journal',
      ),
    ]);
    expect(body).not.toContain('Replication');
  });

  it('quotes the neighbour sentence that holds the default value with the sentence it follows', () => {
    const { body } = answerTo('What is the default value of shared_buffers?', [
      manual(
        'shared_buffers (integer)\n: Sets the amount of memory the database server uses for shared memory buffers. ' +
          'The default is typically 128 megabytes (128MB), but might be less if your kernel settings will not support it. ' +
          'This setting must be at least 128 kilobytes.',
        'config',
        'Memory',
      ),
    ]);
    expect(body).toMatch(/Sets the amount of memory .* \[1\] The default is typically 128 megabytes/);
  });

  it("quotes the row of the entry's attributes above its description when it holds the default asked", () => {
    const { body } = answerTo(
      'With confirmMessages on, how long does the output module wait by default for the program to confirm a message?',
      [
        manual(
          '#### confirmTimeout\n\nconfirmTimeout\n: type: integer | default: 10000 | mandatory: no\n\n' +
            ': New in version 8.38.0.\n\n' +
            ': Specifies how long the output module must wait for the program to confirm each message when ' +
            'confirmMessages is set to on. The value must be expressed in milliseconds.',
          'omprog',
          'confirmTimeout',
        ),
      ],
    );
    expect(body).toBe(
      'confirmTimeout: type: integer | default: 10000 | mandatory: no [1] Specifies how long the output module ' +
        'must wait for the program to confirm each message when confirmMessages is set to on. [1]',
    );
  });

  it('quotes a sentence alone when it holds the value itself', () => {
    const { body } = answerTo('What is the default pack window size?', [
      manual(
        'pack.window\n: The window size defaults to 10. Larger windows compress better and more slowly.',
        'git',
      ),
      manual('The window of a car is large and opens.', 'car'),
    ]);
    expect(body).toBe('pack.window: The window size defaults to 10. [1]');
  });

  it('names the term a quoted definition sentence refers to', () => {
    const { body } = answerTo('How many loose objects trigger gc.auto?', [
      manual(
        'gc.auto\n: When there are approximately more than this many loose objects in the repository, ' +
          'git gc --auto will pack them. The default value is 6700.',
        'git',
      ),
    ]);
    expect(body).toMatch(/^gc\.auto: When there are approximately more than this many loose objects/);
  });

  it('quotes a table row whole, with its row and column labels', () => {
    const { body } = answerTo('What is the numeric value of the WARNING level?', [
      manual(
        'The numeric values of logging levels are given in the following table.\n\n' +
          'Level: CRITICAL | Numeric value: 50\n\nLevel: WARNING | Numeric value: 30\n\nLevel: INFO | Numeric value: 20',
        'logging',
        'Logging Levels',
      ),
    ]);
    expect(body).toContain('Level: WARNING | Numeric value: 30 [1]');
    expect(body).not.toContain('Level: INFO');
  });

  it('prefers the entry whose name the question spells exactly over its siblings', () => {
    const { body } = answerTo('Which hash does uuid5 use to generate a UUID?', [
      manual(
        'uuid.uuid3(namespace, name)\n: Generate a UUID based on the MD5 hash of a namespace identifier and a name.\n\n' +
          'uuid.uuid5(namespace, name)\n: Generate a UUID based on the SHA-1 hash of a namespace identifier and a name.',
        'uuid',
      ),
    ]);
    expect(body.split(' [1]')[0]).toBe(
      'uuid.uuid5(namespace, name): Generate a UUID based on the SHA-1 hash of a namespace identifier and a name.',
    );
  });

  it('prefers the row whose quoted code matches the question case for case', () => {
    const { body } = answerTo("Which C type does the type code 'H' stand for?", [
      manual(
        "Type code: 'h' | C Type: signed short | Minimum size in bytes: 2\n\n" +
          "Type code: 'H' | C Type: unsigned short | Minimum size in bytes: 2",
        'array',
      ),
    ]);
    expect(body.split(' [1]')[0]).toBe("Type code: 'H' | C Type: unsigned short | Minimum size in bytes: 2");
  });

  it('quotes the signature of an API entry when it alone states the default asked for', () => {
    const { body } = answerTo('What compresslevel does gzip.open use by default?', [
      manual(
        "gzip.open(filename, mode='rb', compresslevel=9, encoding=None)\n: Open a gzip-compressed file in binary or text mode, " +
          'returning a file object. The filename argument can be an actual filename or an existing file object.\n\n' +
          'gzip.compress(data, mtime=None)\n: Compress the data, returning a bytes object.',
        'gzip',
      ),
      manual('The compression level of zlib ranges from 0 to 9; the zlib default is 6.', 'zlib'),
    ]);
    expect(body.split(' [1]')[0]).toBe(
      "gzip.open(filename, mode='rb', compresslevel=9, encoding=None): Open a gzip-compressed file in binary or text mode, returning a file object.",
    );
  });

  it('quotes the signature stating the default of the parameter the question names over prose about it', () => {
    // A PDF user guide: a constructor's signature as the term of the paragraph below it, the
    // parameter's own paragraph further on never stating its default.
    const { body } = answerTo('What is the default pagesize tuple, in points, of the canvas constructor?', [
      manual(
        'First of all, we will look at the constructor arguments for the canvas:\n\n' +
          'def __init__(self,filename, pagesize=(595.27,841.89), bottomup = 1, pageCompression=0, verbosity=0 encrypt=None):\n' +
          ': The filename argument controls the name of the final PDF file.\n\n' +
          'The pagesize argument is a tuple of two numbers in points (1/72 of an inch). The canvas defaults to A4, ' +
          'but it is better to explicitly specify it.',
        'pdfgen',
      ),
    ]);
    expect(body).toContain('pagesize=(595.27,841.89)');
  });

  it('takes a parameter defaulting to None as no default stated by its signature', () => {
    const { body } = answerTo('What is the default pickle protocol?', [
      manual(
        "class shelve.Shelf(dict, protocol=None, writeback=False, keyencoding='utf-8')\n" +
          ': A subclass of collections.abc.MutableMapping which stores pickled values in the dict object.',
        'shelve',
      ),
      manual(
        'pickle.DEFAULT_PROTOCOL\n: An integer, the default protocol version used for pickling. Currently the default is 4.',
        'pickle',
      ),
    ]);
    expect(body.split(' [1]')[0]).toBe(
      'pickle.DEFAULT_PROTOCOL: An integer, the default protocol version used for pickling.',
    );
  });

  it('picks the table row that spells the option or directive the question names', () => {
    const { body } = answerTo('What does the %j directive of time.strftime produce?', [
      manual(
        'The following directives can be embedded in the format string of time.strftime:\n\n' +
          'Directive: %d | Meaning: Day of the month as a decimal number [01,31].\n\n' +
          'Directive: %j | Meaning: Day of the year as a decimal number [001,366].\n\n' +
          'Directive: %m | Meaning: Month as a decimal number [01,12].',
        'time',
        'time.strftime',
      ),
    ]);
    expect(body).toContain('Directive: %j | Meaning: Day of the year as a decimal number [001,366]. [1]');
    expect(body).not.toContain('%d');
  });

  it('picks the row of the control key the question names', () => {
    const { body } = answerTo('What does ^U do in the line editor?', [
      manual(
        '^A move to the beginning of the line. ^U delete the entire line. ^W delete the previous word.',
        'keys',
        'Line editor',
      ),
    ]);
    expect(body).toBe('Line editor: ^U delete the entire line. [1]');
  });

  it('quotes the entry of the short option the question names, though it shares no other word with it', () => {
    const { body } = answerTo('What does git clean -n do?', [
      manual(
        '-f, --force\n: Remove untracked files even when clean.requireForce is true.\n\n' +
          "-n, --dry-run\n: Don't actually remove anything, just show what would be done.\n\n" +
          '-q, --quiet\n: Be quiet, only report errors, but not the files that are successfully removed.',
        'git-clean',
      ),
    ]);
    expect(body).toContain(
      "-n, --dry-run: Don't actually remove anything, just show what would be done. [1]",
    );
  });

  it('picks the option row the question names in parentheses, by the name before its argument', () => {
    const { body } = answerTo('What PostScript level does Asymptote use by default (-level)?', [
      manual(
        'Asymptote produces PostScript output by default, at a high level of quality.\n\n' +
          '-keepaux | Keep intermediate LaTeX .aux files [false]\n\n' +
          '-level n | Postscript level [3]\n\n' +
          '-listvariables | List available global functions and variables [false]',
        'asymptote',
      ),
    ]);
    expect(body).toContain('-level n | Postscript level [3] [1]');
    expect(body).not.toContain('-keepaux');
  });

  it('quotes the short definition of the option with a digit that the question names', () => {
    const { body } = answerTo('Which option does the single letter option -0 set?', [
      manual(
        'Some options also have one or more single letter names.\n\n' +
          '-0\n: CORRECT\n\n-1\n: PRINT_EXIT_VALUE\n\n-4\n: GLOB_DOTS',
        'options',
      ),
    ]);
    expect(body).toContain('-0: CORRECT [1]');
    expect(body).not.toContain('PRINT_EXIT_VALUE');
  });

  it('quotes the entry of the one-letter code the question names as a letter', () => {
    const { body } = answerTo("What does the letter d enable in the tool's -N name resolving flags?", [
      manual(
        '-N <name resolving flags>\n: Turns on name resolving for particular types of addresses and port numbers. ' +
          'The argument is a string that may contain the following letters:\n\n' +
          'N\n: Use external name resolver.\n\nd\n: Enable name resolution from captured DNS packets.\n\n' +
          'm\n: Enable MAC address resolution.\n\nn\n: Enable network address resolution.',
        'command-line',
      ),
    ]);
    expect(body).toContain('Enable name resolution from captured DNS packets.');
    expect(body).not.toContain('MAC address');
  });

  it('quotes the line of a listing of codes that the question names as a character', () => {
    const { body } = answerTo('In the termination state field, what does a first character K mean?', [
      manual(
        'The termination state field holds two characters. On the first character, a code reporting the first event ' +
          'which caused the session to terminate:\n\n```\n' +
          '        D : the session was killed by the proxy because the server was detected as down.\n\n' +
          '        K : the session was actively killed by an admin operating on the proxy.\n\n' +
          '        c : the client-side timeout expired while waiting for the client to send data.\n```',
        'logging',
      ),
    ]);
    expect(body).toContain('K: the session was actively killed by an admin operating on the proxy.');
  });

  it('quotes the short definition that spells the name the question asks the option of', () => {
    const { body } = answerTo('Which single letter option corresponds to GLOB_DOTS?', [
      manual(
        'Some options also have one or more single letter names.\n\n' +
          '-3\n: NO_NOMATCH\n\n-4\n: GLOB_DOTS\n\n-5\n: NOTIFY',
        'options',
      ),
    ]);
    expect(body).toContain('-4: GLOB_DOTS [1]');
    expect(body).not.toContain('NOTIFY');
  });

  it('quotes the definition of the parameter in capitals that the question names', () => {
    const { body } = answerTo('What does HISTSIZE control?', [
      manual(
        'Immediately before execution, each command is saved in the history list, the size of which is controlled by the HISTSIZE parameter.',
        'history',
      ),
      manual(
        'HISTFILE\n: The file to save the history in when an interactive shell exits.\n\n' +
          'HISTSIZE <S>\n: The maximum number of events stored in the internal history list.\n\n' +
          'SAVEHIST\n: The maximum number of history events to save in the history file; it should not exceed HISTSIZE.',
        'parameters',
      ),
    ]);
    expect(body).toContain(
      'HISTSIZE <S>: The maximum number of events stored in the internal history list. [2]',
    );
    expect(body).not.toContain('SAVEHIST');
  });

  it('counts "the default value of X is" as stating the default asked for, like "the default is"', () => {
    const { body } = answerTo('What is the default value of the render setting?', [
      manual(
        'The interactive WebGL files use the default mouse bindings of the renderer. ' +
          'By default, viewing the rendered HTML files requires network access. ' +
          'Render the scene at n pixels per bp, as specified by the setting render=n. ' +
          'A negative value of n is interpreted as |2n| for EPS and PDF formats and |n| for other formats. ' +
          'The default value of render is -1. By default, the scene is rendered at twice the specified resolution.',
        'three',
      ),
      manual(
        'Drawing thick lines as tubes can be slow to render. ' +
          'By default, mesh lines are drawn thin, unless an explicit line width is given.',
        'tubes',
      ),
    ]);
    expect(body).toContain('The default value of render is -1. [1]');
  });

  it('never quotes code blocks', () => {
    const { body } = answerTo('How do I start a bisect session?', [
      manual(
        '```\n$ git bisect start\n$ git bisect bad\n```\n\nA bisect session starts with git bisect start.',
        'git',
      ),
    ]);
    expect(body).toBe('A bisect session starts with git bisect start. [1]');
  });

  it('quotes at most five sentences, every one cited', () => {
    const many = Array.from({ length: 8 }, (_, i) =>
      manual(
        `option${i}\n: The buffer limit of option ${i} is set here. The default limit is ${i + 1} megabytes.`,
        `doc${i}`,
      ),
    );
    const { body } = answerTo('What is the default buffer limit?', many);
    const sentences = body.split(/(?<=\[\d+\])\s+/);
    expect(sentences.length).toBeLessThanOrEqual(5);
    for (const sentence of sentences) expect(sentence).toMatch(/ \[\d+\]$/);
  });
});

describe('composeExtractiveAnswer on the entries of a reference manual', () => {
  it('quotes the entry the question names first, before a sibling entry that mentions it', () => {
    const { body, citations } = answerTo('What is the default value of cache_size?', [
      manual(
        'cache_size_multiplier (floating point)\n: Used to compute how much memory hash tables may use. ' +
          'The default value is 1.5, which lets them use half again the usual cache_size.',
        'server-config-hash',
        'Memory',
      ),
      manual(
        'cache_size (integer)\n: Sets the base amount of memory a query step may use before spilling to disk. ' +
          'The default value is four megabytes (4MB).',
        'server-config',
        'Memory',
      ),
    ]);
    expect(citations[0]?.documentId).toBe('server-config');
    expect(body).toMatch(/^cache_size \(integer\): .* The default value is four megabytes \(4MB\)\. \[1\]/);
  });

  it('picks the table row whose first cell the question names over rows that mention it', () => {
    const { body } = answerTo('What is the highest value of the date type?', [
      manual(
        'Name: timestamp | Storage Size: 8 bytes | Description: both date and time | High Value: 294276 AD\n\n' +
          'Name: date | Storage Size: 4 bytes | Description: day of the calendar | High Value: 5874897 AD',
        'types',
        'Date/Time Types',
      ),
    ]);
    expect(body).toBe(
      'Name: date | Storage Size: 4 bytes | Description: day of the calendar | High Value: 5874897 AD [1]',
    );
  });

  it('quotes a signature line with the sentence after it that says what it returns', () => {
    const { body } = answerTo('What kind of identifier does make_random_id return?', [
      manual(
        'The server includes one function to generate an identifier:\n\n' +
          '`make_random_id` () → `ident`\n\n' +
          'This function returns a version 4 (random) identifier. It suits most applications.',
        'functions',
        'Identifier Functions',
      ),
    ]);
    expect(body).toContain(
      '`make_random_id` () → `ident` [1] This function returns a version 4 (random) identifier. [1]',
    );
  });

  it('names the camelCase option the question spells over the other options of its list', () => {
    const { body } = answerTo('What is the default value of DefaultScoringS?', [
      manual(
        'DefaultScoringM\n: Default scoring strategy for questions with several correct answers.\n\n' +
          'DefaultScoringS\n: Default scoring strategy for questions with one correct answer. The default value is "e=0,v=0,b=1,m=0".',
        'options',
        'Options',
      ),
    ]);
    expect(body).toMatch(/^DefaultScoringS: /);
    expect(body).toContain('e=0,v=0,b=1,m=0');
  });

  it('quotes the default of the option asked for, never the one ending the list item before it', () => {
    const { body } = answerTo('What is the default breakLength of util.inspect()?', [
      manual(
        '-   `options` <Object>\n' +
          '    -   `maxStringLength` <integer> Specifies the maximum number of characters to include when formatting. **Default:** `10000`.\n' +
          '    -   `breakLength` <integer> The length at which input values are split across multiple lines. ' +
          'Set to `Infinity` to format the input as a single line. **Default:** `80`.\n' +
          '    -   `compact` <integer> Setting this to `false` causes each object key to be displayed on a new line. **Default:** `3`.',
        'util',
        '`util.inspect(object[, options])`',
      ),
    ]);
    const quoted = body.split(/ \[\d+\] ?/);
    expect(quoted.find((sentence) => sentence.includes('`breakLength`'))).not.toContain('10000');
    expect(quoted).toContain('**Default:** `80`.');
  });

  it('quotes the list item whose name the question spells, though it shares no other word with it', () => {
    const { body } = answerTo('What does exit code 9 of a Node.js process mean?', [
      manual(
        'The `process.exit()` method instructs Node.js to terminate the process synchronously with an exit status of `code`. ' +
          'The shell that executed Node.js should see the exit code as `1`. ' +
          'Node.js will normally exit with a `0` status code when no more async operations are pending.',
        'process',
        '`process.exit([code])`',
      ),
      manual(
        '-   `8`: Unused. In previous versions of Node.js, exit code 8 sometimes indicated an uncaught exception.\n' +
          '-   `9` **Invalid Argument**: Either an unknown option was specified, or an option requiring a value was provided without a value.\n' +
          '-   `10` **Internal JavaScript Run-Time Failure**: The JavaScript source code internal in the Node.js bootstrapping process threw an error.\n' +
          '-   `12` **Invalid Debug Argument**: The `--inspect` options were set, but the port number chosen was invalid.\n' +
          '-   `14` **Snapshot Failure**: Node.js was started to build a V8 startup snapshot and it failed.',
        'process',
        'Exit codes',
      ),
    ]);
    expect(body).toContain('**Invalid Argument**: Either an unknown option was specified');
  });

  it('quotes the entry of the escape sequence the question names', () => {
    const entries = [
      ['\\b', 'a backspace, control-h, ASCII code 8'],
      ['\\f', 'a formfeed, control-l, ASCII code 12'],
      ['\\n', 'a newline, control-j, ASCII code 10'],
      ['\\r', 'a carriage return, control-m, ASCII code 13'],
      ['\\t', 'a horizontal tab, control-i, ASCII code 9'],
      ['\\a', 'an alert character, control-g, ASCII code 7'],
    ].map(([sequence, meaning]) => `${sequence}\n: Represents ${meaning}.`);
    const { body } = answerTo('What ASCII code does the \\a escape sequence represent?', [
      manual(entries.join('\n\n'), 'strings', 'Escape Sequences in String Constants'),
    ]);
    expect(body).toContain('ASCII code 7');
  });

  it('quotes the short code block that finishes a sentence broken off before it', () => {
    const { body } = answerTo('What is the default value of history_timestamp_format_string?', [
      manual(
        'val = history_timestamp_format_string ()\n' +
          ': Query or set the internal variable that specifies the format string for the comment line written to the history file.\n\n' +
          ': The format string is passed to `strftime`. The default value is\n\n' +
          '```\n"# Octave VERSION, %a %b %d %H:%M:%S %Y %Z <USER@HOST>"\n```\n\n' +
          ': When called from inside a function with the `"local"` option, the variable is changed locally.',
        'history',
        'Commands for History',
      ),
    ]);
    expect(body).toContain('The default value is `"# Octave VERSION, %a %b %d %H:%M:%S %Y %Z <USER@HOST>"`');
  });

  it('never runs the code after a table row into the row', () => {
    const { body } = answerTo('What is the default port?', [
      manual('Setting: port | Default: 8080\n\n```\nlisten 8080\n```', 'config', 'Settings'),
    ]);
    expect(body).toBe('Setting: port | Default: 8080 [1]');
  });

  it('quotes the option whose term marks it as the default', () => {
    const { body } = answerTo('What is the default type of factorization of ichol?', [
      manual(
        'L = ichol (A), L = ichol (A, opts)\n: Compute the incomplete Cholesky factorization of the sparse square matrix A.\n\n' +
          ': The factorization may be modified by passing options in a structure opts.\n\n' +
          'type\n: Type of factorization.\n\n' +
          '"ict"\n: Incomplete Cholesky factorization with threshold dropping (ICT).\n\n' +
          '"nofill" (default)\n: Incomplete Cholesky factorization with no fill-in (IC(0)).\n\n' +
          'diagcomp\n: Real non-negative scalar used to compute the diagonal compensation. The default value is 0.',
        'sparse',
        'Iterative Techniques',
      ),
    ]);
    expect(body).toContain('"nofill" (default): Incomplete Cholesky factorization with no fill-in');
  });

  it('quotes the list item that marks itself the default among its siblings', () => {
    // The Why3 IDE's preferences: the saving policies are list items, one marked "(default)";
    // sentences of other sections share more of the question's words.
    const { body } = answerTo('By default, does the Why3 IDE save the proof session when I quit?', [
      manual(
        'The why3 replay command is meant to execute the proofs stored in a Why3 session file, as produced by the IDE. ' +
          'Its main purpose is to play non-regression tests.',
        'why3',
        'The replay Command',
      ),
      manual(
        'The left toolbar that was present in former versions of Why3 is now replaced by a context menu activited ' +
          'by clicking the right mouse button, while cursor is on a given row of the proof session tree.',
        'why3',
        'Context Menu',
      ),
      manual(
        'The why3 session html command produces a summary of the proof session in HTML syntax. ' +
          'There are two styles of output: table and simpletree. The default is table.',
        'why3',
        'Command html',
      ),
      manual(
        '• option to disallow source editing within the GUI\n\n• the policy for saving sessions:\n\n' +
          '– always save on exit (default): the current state of the proof session is saving on exit\n\n' +
          '– never save on exit: the current state of the session is never saved automatically, you must use menu File → Save session\n\n' +
          '– ask whether to save: on exit, a popup window asks whether you want to save or not.',
        'why3',
        'Preferences Dialog',
      ),
    ]);
    expect(body).toContain(
      '– always save on exit (default): the current state of the proof session is saving on exit',
    );
  });

  it('never quotes a contents line with dot leaders', () => {
    const { body } = answerTo('Which packages are loaded by default?', [
      manual('6.1 Default packages . . . . . . . . . . . 24', 'contents'),
      manual('The set of packages loaded on startup by default is datasets, utils and stats.', 'packages'),
    ]);
    expect(body).toBe('The set of packages loaded on startup by default is datasets, utils and stats. [1]');
  });
});

describe('composeExtractiveAnswer on values stated apart from their entry', () => {
  it('quotes the sentence after a definition that names a default without stating it', () => {
    const { body } = answerTo('What is the default mode for new archives?', [
      manual(
        'archive.DEFAULT_MODE\n: The default mode for new archives. This is currently `STRICT_MODE`.\n\n' +
          'archive.LEGACY_MODE\n: The mode of archives written before version 2.',
        'archive',
      ),
    ]);
    expect(body).toContain('The default mode for new archives. [1] This is currently `STRICT_MODE`. [1]');
  });

  it('takes a line of default settings for a statement of the default', () => {
    const { body } = answerTo('What is the default cache size?', [
      manual(
        'Syntax:\n\nset cache {size <N>} {quiet|verbose} {default}\n\n' +
          'When leaving the tool the value of cache size limits the number of entries kept.\n\n' +
          'By default the cache command prints each entry it keeps.\n\n' +
          'Default settings: set cache size 64 quiet.',
        'tool',
        'Cache',
      ),
    ]);
    expect(body).toContain('Default settings: set cache size 64 quiet.');
  });

  it('does not take an option named [default] for a statement of the default value', () => {
    // beamer's template options: "[default]" names the option, "The default is 20%." states the
    // value; other passages saying "by default" outrank that sentence quoted alone.
    const { body } = answerTo('By default, how opaque are shaded table of contents entries?', [
      manual(
        '• [default][⟨opaqueness⟩] In the default setting, shaded table of contents entries show ' +
          'whatever the nonshaded entries show, but only ⟨opaqueness⟩% opaque. The default is 20%. ' +
          'Example: the option [default][50] makes dimmed entries 50% transparent.',
        'toc',
        'Shaded entries',
      ),
      manual(
        'By default, shaded table of contents entries are drawn for sections other than the current one. ' +
          'By default, the table of contents shows shaded entries in a lighter colour. ' +
          'By default, entries of the table of contents are shaded when the option currentsection is given. ' +
          'By default, shaded entries of the table of contents are not hidden.',
        'toc2',
        'Table of contents',
      ),
    ]);
    expect(body).toContain('opaque. [1] The default is 20%. [1]');
  });

  it('takes "setting the default font size to 11pt" for a statement of the default', () => {
    const { body } = answerTo('What is the default font size for normal text?', [
      manual(
        'Measuring the default font size in points is not a good idea for presentations. ' +
          'Nevertheless, the class does just that, setting the default font size to 11pt as usual. ' +
          'This may seem small, but the size of each frame is by default just 128mm by 96mm and the viewer enlarges the font.',
        'fonts',
        'Choosing a Font Size for Normal Text',
      ),
      manual(
        'In this class, the default sizes of the fonts are chosen so that little text fits onto a slide. ' +
          'By default, the normal text font is a sans-serif font. ' +
          'The font of normal text is by default the document font. ' +
          'By default, the size of the normal text font follows the class option.',
        'themes',
        'Font themes',
      ),
    ]);
    expect(body).toContain('setting the default font size to 11pt as usual.');
  });

  it("quotes the default when the question asks what holds if one doesn't specify it", () => {
    // "specify" is how the question asks for a default, not what it is about: the sentences on
    // ports, labels and records share it with the node's shape, the sentence stating the default does not.
    const { body } = answerTo("What shape does dot give a node when I don't specify one?", [
      manual(
        'Ports can be specified for any node shape, using compass points. A node shape can also be specified ' +
          'by an HTML-like label holding a table. The fields of a record node shape are specified by its label ' +
          'string. Polygonal node shapes specified with shape=polygon take the sides attribute.',
        'dot',
        'Node Ports',
      ),
      manual(
        'Nodes are drawn, by default, with shape=ellipse, width=.75 and height=.5. Other common shapes ' +
          'include box, circle and record.',
        'dot',
        'Node Shapes',
      ),
    ]);
    expect(body).toContain('Nodes are drawn, by default, with shape=ellipse, width=.75 and height=.5.');
  });

  it("quotes the default after an option's description when the question asks what holds if one doesn't give it", () => {
    // Sphinx's option list: a placeholder in angle brackets (`=<prefix>`) names what to give, it
    // states no default; what holds without the option is a value, stated by the next sentence.
    const { body } = answerTo(
      "What prefix does pp put on the LaTeX commands it generates if I don't give --prefix?",
      [
        manual(
          'pp [--output=mlw|latex] [--prefix=<prefix>] <file>\n\n' +
            'The generated LaTeX files contain some macros that must be defined externally. ' +
            'Various definitions can be given to the LaTeX commands to customize the output.',
          'tools',
          'Customizing LaTeX output',
        ),
        manual(
          '--output=<output>\n: Set the output format, among mlw and latex.\n\n' +
            '--prefix=<prefix>\n: Set the prefix for LaTeX commands when using --output=latex. The default prefix is WHY.',
          'tools',
          'The pp Command',
        ),
      ],
    );
    expect(body).toContain('The default prefix is WHY.');
  });

  it("quotes first a key's term that states its default after its placeholder", () => {
    // The listings manual: `aboveskip=〈dimension〉 \medskipamount`, the default after the
    // placeholder; `--prefix=<prefix>` ends with its placeholder and states none.
    const { body } = answerTo('How much vertical space is put above a displayed listing by default?', [
      manual(
        'It is always a good idea to structure the layout by vertical space, horizontal lines, or different type sizes. ' +
          'The best to stress whole listings are colours, frames, vertical space, and captions. ' +
          'A displayed listing is put in its own paragraph.',
        'listings',
        'Tips',
      ),
      manual(
        'float=[*]〈subset of tbph〉\n: Makes sense on displayed listings only and lets them float.\n\n' +
          'aboveskip=〈dimension〉 \\medskipamount\n: Defines the vertical space above a displayed listing.\n\n' +
          'belowskip=〈dimension〉 \\medskipamount\n: Defines the vertical space below a displayed listing.',
        'listings',
        'Displayed listings',
      ),
    ]);
    expect(body).toMatch(
      /^aboveskip=〈dimension〉 \\medskipamount: Defines the vertical space above a displayed listing\./,
    );
  });

  it('takes a version "or higher" for a statement of the bound asked for', () => {
    const { body } = answerTo('Which pdflatex version does the class require at least?', [
      manual(
        'To create a PDF version of your talk, run the program pdflatex on main.tex at least twice. ' +
          'The class requires a recent version of pdflatex and of the packages it loads.',
        'start',
        'Getting started',
      ),
      manual(
        'This documentation is part of version 3.68 of the class. If you use pdflatex, which is optional, ' +
          'you need\n\n• pdflatex version 0.14 or higher. Earlier versions do not work.',
        'install',
        'Versions and Dependencies',
      ),
      manual(
        'Together with at least five of the principal authors of the document, list the publisher. ' +
          'The class and pdflatex versions are named on the title page.',
        'license',
        'License',
      ),
    ]);
    expect(body).toContain('pdflatex version 0.14 or higher.');
  });

  it('quotes the neighbour stating the default over an earlier one that only holds a number', () => {
    const { body } = answerTo('What is the default value of ScoringRule?', [
      manual(
        'ScoringRule\n: Default scoring strategy for open questions. See Section 6.7.2 for details. ' +
          'The default value is high=3, so that a perfect answer gives 3 points.',
        'options',
      ),
    ]);
    expect(body).toContain('The default value is high=3');
  });

  it('quotes the attribute row that a qualified name in the question ends with', () => {
    const { body } = answerTo('What does sys.float_info.dig mean?', [
      manual(
        'The attribute `sys.float_info.dig` needs further explanation.\n\n' +
          'attribute: `epsilon` | explanation: difference between 1.0 and the least value greater than 1.0\n\n' +
          'attribute: `dig` | explanation: maximum number of decimal digits that can be faithfully represented in a float',
        'sys',
      ),
    ]);
    expect(body).toContain(
      'attribute: `dig` | explanation: maximum number of decimal digits that can be faithfully represented in a float [1]',
    );
    expect(body).not.toContain('epsilon');
  });

  it('quotes the table row whose first cell is the symbol the question names', () => {
    const { body } = answerTo('What does ? match in shell-style wildcards?', [
      manual(
        'This module provides support for Unix shell-style wildcards. The special characters are:\n\n' +
          'Pattern: `*` | Meaning: matches everything\n\n' +
          'Pattern: `?` | Meaning: matches any single character',
        'wildcards',
      ),
      manual('List of shell-style wildcard patterns that test names have to match to be run.', 'runner'),
    ]);
    expect(body).toMatch(/Pattern: `\?` \| Meaning: matches any single character \[\d\]/);
  });

  it('prefers the page documenting the command the question names over a page that mentions it', () => {
    const page = (title: string, text: string): SearchHit => ({
      text,
      score: 1,
      source: { documentId: title, title },
    });
    const { body, citations } = answerTo('What does tool clone --depth create?', [
      page(
        'tool-pull(1)',
        '--depth=<depth>\n: Fetch into a shallow repository created by `tool clone` with `--depth=<depth>`, deepening its history.',
      ),
      page(
        'tool-clone(1)',
        '--depth <depth>\n: Create a shallow clone with a history truncated to the given number of commits.',
      ),
    ]);
    expect(citations[0]?.title).toBe('tool-clone(1)');
    expect(body).toMatch(/^--depth <depth>: Create a shallow clone/);
  });

  it('answers the maximum asked for from the Upper Limit of a limits table row', () => {
    const { body } = answerTo('What is the maximum number of columns in a table?', [
      manual(
        'The maximum number of entries in the statistics list of a column can be set per table.',
        'statistics',
      ),
      manual(
        'Item: columns per table | Upper Limit: 1,600 | Comment: further limited by tuple size\n\n' +
          'Item: columns per index | Upper Limit: 32 | Comment: can be increased by recompiling\n\n' +
          'The maximum number of columns for a table is further reduced as the tuple must fit in a single 8192-byte page.',
        'limits',
        'Limits',
      ),
    ]);
    expect(body).toMatch(/^Item: columns per table \| Upper Limit: 1,600/);
    expect(body).not.toContain('columns per index');
  });

  it('does not take "many" in "how many" for the subject of the question', () => {
    const { body } = answerTo('How many columns can an index have at most?', [
      manual('Many index access methods kept many additional columns in older releases.', 'catalog'),
      manual('Indexes can have up to 32 columns, including included columns.', 'create-index'),
    ]);
    expect(body).toMatch(/^Indexes can have up to 32 columns/);
  });
});

describe('composeExtractiveAnswer on the unit of a value', () => {
  const parameters = manual(
    'MAIL\n: If this parameter is set and mailpath is not set, the shell looks for mail in the specified file.\n\n' +
      'MAILCHECK\n: The interval in seconds between checks for new mail.\n\n' +
      'mailpath\n: An array of filenames to check for new mail.',
    'parameters',
    'Parameters Used By The Shell',
  );
  const expansion = manual(
    'm\n: If the MULTIBYTE option is in effect, the flag m may also be given, in which case widths are used for padding; ' +
      'otherwise each character is taken as one unit of width.',
    'expansion',
    'Parameter Expansion Flags',
  );

  it('quotes the entry stating its unit, though it never says "unit"', () => {
    const { body } = answerTo('In what unit is MAILCHECK given?', [expansion, parameters]);
    expect(body).toBe('MAILCHECK: The interval in seconds between checks for new mail. [1]');
  });

  it('quotes the sentence stating the unit after the one naming the value', () => {
    const { body } = answerTo('In what unit is KEYTIMEOUT measured?', [
      manual(
        'When reading a bound multi-character sequence, the shell waits KEYTIMEOUT for the next key. ' +
          'This is counted in hundredths of seconds.',
        'zle',
        'Reading Commands',
      ),
    ]);
    expect(body).toBe(
      'When reading a bound multi-character sequence, the shell waits KEYTIMEOUT for the next key. [1] ' +
        'This is counted in hundredths of seconds. [1]',
    );
  });
});

describe('composeExtractiveAnswer on listings of settings', () => {
  const options = manual(
    '--silent, --quiet, -q\n: Do not print the usual greeting and version message at startup.\n\n' +
      '--traditional, --braindead\n: For compatibility with MATLAB, set initial values for user preferences to the following values\n\n' +
      '```\nPS1                             = ">> "\nPS2                             = ""\n' +
      'beep_on_error                   = true\nsave_default_options            = "-mat-binary"\n```\n\n' +
      ': and disable the following warnings\n\n```\nOctave:abbreviated-property-match\nOctave:empty-index\n```',
    'options',
    'Command Line Options',
  );
  const prompt = manual(
    'val = PS1 (), old_val = PS1 (new_val)\n: Query or set the primary prompt string. ' +
      'When executing interactively, Octave displays the primary prompt when it is ready to read a command.',
    'prompt',
    'Customizing the Prompt',
  );

  it('quotes the line of a listing that sets the name asked about, under the entry holding the listing', () => {
    const { body } = answerTo('What does the --traditional option set PS1 to?', [options, prompt]);
    expect(body).toContain(
      '--traditional, --braindead: For compatibility with MATLAB, set initial values for user preferences to the following values [1] `PS1 = ">> "` [1]',
    );
  });

  it('quotes no line of a listing that sets another name', () => {
    const { body } = answerTo('What does the --traditional option set save_default_options to?', [options]);
    expect(body).toContain('`save_default_options = "-mat-binary"` [1]');
    expect(body).not.toMatch(/PS1|PS2|beep_on_error/);
  });
});

describe('composeExtractiveAnswer on names held by headings and tables', () => {
  const section = (text: string, headingPath: string[]): SearchHit => ({
    text,
    score: 1,
    source: { documentId: 'codes', title: 'Result codes', heading: headingPath.at(-1)!, headingPath },
  });

  it('names the heading above the quoted sentence when the heading spells what the question names', () => {
    const { body } = answerTo('What is the numeric value of the DB_BUSY result code?', [
      section('### (5) DB_BUSY\n\nThe DB_BUSY result code indicates that the file could not be written.', [
        '6. Result Code Meanings',
        '(5) DB_BUSY',
      ]),
      section('### (261) DB_BUSY_RECOVERY\n\nThe DB_BUSY_RECOVERY code is an extended code for DB_BUSY.', [
        '6. Result Code Meanings',
        '(261) DB_BUSY_RECOVERY',
      ]),
    ]);
    expect(body).toMatch(/^\(5\) DB_BUSY: The DB_BUSY result code indicates/);
    expect(body).not.toContain('(261) DB_BUSY_RECOVERY:');
  });

  it('quotes a bare option line with its description and the sentence after it stating the default', () => {
    const { body } = answerTo('What is the default value of OPT_MIN_FD?', [
      manual(
        '**OPT_MIN_FD=_N_**\n\n> The unix VFS will never use a file descriptor less than _N_. The\n> default value of _N_ is 3.\n\n' +
          '> Avoiding low-numbered file descriptors is a defense against accidental corruption.',
        'compile',
        'Options To Set Default Parameter Values',
      ),
    ]);
    expect(body).toBe(
      '**OPT_MIN_FD=_N_** [1] The unix VFS will never use a file descriptor less than _N_. [1] The default value of _N_ is 3. [1]',
    );
  });

  it('takes the rows of one table inside a definition for siblings across the passages of its page', () => {
    const rows = (text: string): SearchHit => ({
      text,
      score: 1,
      source: {
        documentId: 'sys',
        title: 'sys — System-specific parameters',
        heading: 'sys.float_info',
        headingPath: ['sys — System-specific parameters', 'sys.float_info'],
      },
    });
    const { body } = answerTo('What does sys.float_info.dig mean?', [
      rows(
        ': attribute: `radix` | explanation: radix of exponent representation\n\n' +
          ': attribute: `rounds` | explanation: the rounding mode; see the C99 standard for the meanings of its values',
      ),
      rows(
        ': attribute: `dig` | explanation: maximum number of decimal digits that can be faithfully represented in a float',
      ),
    ]);
    expect(body).toBe(
      'sys.float_info: attribute: `dig` | explanation: maximum number of decimal digits that can be faithfully represented in a float [1]',
    );
  });

  it("quotes the Default row of a directive's table of fields beside the row the question matches better", () => {
    const { body } = answerTo('How long does IdleWait hold an idle connection open by default?', [
      {
        text:
          '## IdleWait Directive\n\n' +
          'Description: | Time the server holds an idle connection open waiting for the next request\n\n' +
          'Syntax: | `IdleWait seconds`\n\n' +
          'Default: | `IdleWait 15`\n\n' +
          'Context: | server config, virtual host\n\n' +
          'Module: | core\n\n' +
          'The number of seconds the server holds an idle connection open before closing it.',
        score: 1,
        source: {
          documentId: 'core',
          title: 'Core Features',
          heading: 'IdleWait Directive',
          headingPath: ['Core Features', 'IdleWait Directive'],
        },
      },
    ]);
    expect(body).toContain('Default: | `IdleWait 15`');
  });

  it('quotes the opening sentence of the definition whose term holds the symbol the question asks about', () => {
    const logs = (text: string, headingPath: string[]): SearchHit => ({
      text,
      score: 1,
      source: { documentId: 'logs', title: 'Log Files', heading: headingPath.at(-1)!, headingPath },
    });
    const { body } = answerTo('What does %a log in the Basic Log Format?', [
      logs(
        'Basic Log Format (BLF)\n: `"%a %i %u %t \\"%r\\" %>s %b"`\n\nBasic Log Format with Virtual Host\n: `"%v %a %i %u %t \\"%r\\" %>s %b"`',
        ['Log Files', 'Log Formats'],
      ),
      logs(
        'If a relay exists between the user and the server, this address will be the address of the relay, rather than the originating machine.\n\n' +
          '- (%i)\n: The hyphen in the output indicates that the requested piece of information is not available.',
        ['Log Files', 'Access Log', 'Basic Log Format', '192.0.2.7 (%a)'],
      ),
      logs(
        'Each part of this log entry is described below.\n\n' +
          '192.0.2.7 (%a)\n' +
          ': This is the address of the peer that opened the connection to the server. ' +
          'If `ReverseLookups` is set to `On`, then the server will try to find the hostname and log it in place of the address. ' +
          'However, this configuration is not recommended since it can slow the server. ' +
          'Instead, it is best to use a log post-processor such as `logresolve` to find the hostnames. ' +
          'The address logged is not necessarily the address of the machine at which the user is sitting.',
        ['Log Files', 'Access Log', 'Basic Log Format'],
      ),
    ]);
    expect(body).toContain('This is the address of the peer that opened the connection to the server.');
  });
});

describe('composeExtractiveAnswer on the default among several choices', () => {
  it('quotes the choice marked as the default over choices that do something by default', () => {
    const page = (headingPath: string[], text: string): SearchHit => ({
      text,
      score: 1,
      source: { documentId: 'app-pgdump', title: 'pg_dump', heading: headingPath.at(-1)!, headingPath },
    });
    const { body } = answerTo('Which output format does pg_dump write by default?', [
      page(
        ['Options', '-E encoding, --encoding=encoding'],
        '-f file, --file=file\n: Send output to the specified file. This parameter can be omitted for file based output formats, in which case the standard output is used. ' +
          'It must be given for the directory output format however, where it specifies the target directory instead of a file.\n\n' +
          '-F format, --format=format\n: Selects the format of the output. _`format`_ can be one of the following:\n\n' +
          'p, plain\n: Output a plain-text SQL script file (the default).\n\n' +
          'c, custom\n: Output a custom-format archive suitable for input into pg_restore. Together with the directory output format, this is the most flexible output format ' +
          'in that it allows manual selection and reordering of archived items during restore. This format is also compressed by default.',
      ),
      page(
        ['Options', 't, tar'],
        '-j njobs, --jobs=njobs\n: Run the dump in parallel by dumping _`njobs`_ tables simultaneously. You can only use this option with the directory output format ' +
          'because this is the only output format where multiple processes can write their data at the same time.',
      ),
      page(
        ['Description'],
        'When used with one of the archive file formats and combined with pg_restore, pg_dump provides a flexible archival and transfer mechanism. ' +
          'The most flexible output file formats are the “custom” format (`-Fc`) and the “directory” format (`-Fd`). ' +
          'They allow for selection and reordering of all archived items, support parallel restoration, and are compressed by default.',
      ),
    ]);
    expect(body).toMatch(/p, plain: Output a plain-text SQL script file \(the default\)\. \[\d\]/);
  });

  it('quotes the option whose next sentence marks it as the default over an option stating a default of its own', () => {
    const options = (text: string): SearchHit => ({
      text,
      score: 1,
      source: {
        documentId: 'pwfile',
        title: 'pwfile - Manage password files',
        heading: 'Options',
        headingPath: ['pwfile - Manage password files', 'Options'],
      },
    });
    const { body } = answerTo('Which hashing algorithm does pwfile use for passwords by default?', [
      options(
        '-C\n: This flag is only allowed in combination with `-B` (bcrypt hashing). It sets the computing time used for the bcrypt algorithm (higher is more secure but slower, default: 5).\n\n' +
          '-r\n: This flag is only allowed in combination with `-2`. It sets the number of hash rounds used for the SHA-2 algorithms (the default is 5,000).',
      ),
      options(
        '-m\n: Use MD5 hashing for passwords. This is the default (since version 2.2).\n\n' +
          '-2\n: Use SHA-256 `crypt()` based hashes for passwords. This is supported on most Unix platforms.',
      ),
    ]);
    expect(body).toMatch(/^-m: Use MD5 hashing for passwords\. \[\d\] This is the default/);
  });

  it('quotes the choice whose description opens with "Default." when the default is asked', () => {
    const { body } = answerTo('What is the default value of CMAKE_FIND_PACKAGE_SORT_ORDER?', [
      {
        text:
          '# CMAKE_FIND_PACKAGE_SORT_ORDER\n\nNew in version 3.7.\n\n' +
          'The default order for sorting packages found using `find_package()`. It can assume one of the following values:\n\n' +
          'NONE\n: Default. No attempt is done to sort packages. The first valid package found will be selected.\n\n' +
          'NAME\n: Sort packages lexicographically before selecting one.\n\n' +
          'NATURAL\n: Sort packages using natural order (see `strverscmp(3)` manual), i.e. such that contiguous digits are compared as whole numbers.',
        score: 1,
        source: {
          documentId: 'cmake-sort-order',
          title: 'CMAKE_FIND_PACKAGE_SORT_ORDER',
          heading: 'CMAKE_FIND_PACKAGE_SORT_ORDER',
          headingPath: ['CMAKE_FIND_PACKAGE_SORT_ORDER'],
        },
      },
    ]);
    expect(body).toMatch(/NONE: Default\. No attempt is done to sort packages\. \[1\]/);
  });
});

describe('composeExtractiveAnswer on the version that added an entry', () => {
  it('quotes the "New in version" line of the value the question names', () => {
    const { body } = answerTo('In which CMake version was 23 added as a supported value of CXX_STANDARD?', [
      {
        text:
          '# CXX_STANDARD\n\nNew in version 3.1.\n\n' +
          'The C++ standard whose features are requested to build this target.\n\n' +
          'This property specifies the C++ standard whose features are requested to build this target. ' +
          'For some compilers, this results in adding a flag such as `-std=gnu++11` to the compile line.\n\n' +
          'Supported values are:\n\n98\n: C++98\n\n11\n: C++11\n\n' +
          '17\n: New in version 3.8.\n\n: C++17\n\n20\n: New in version 3.12.\n\n: C++20\n\n' +
          '23\n: New in version 3.20.\n\n: C++23\n\n26\n: New in version 3.25.\n\n: C++26.\n\n' +
          'If the value requested does not result in a compile flag being added for the compiler in use, a previous standard flag will be added instead. ' +
          'This means that using:\n\n```\nset_property(TARGET tgt PROPERTY CXX_STANDARD 11)\n```\n\n' +
          'with a compiler which does not support `-std=gnu++11` or an equivalent flag will not result in an error or warning, ' +
          'but will instead add the `-std=gnu++98` flag if supported. ' +
          'This "decay" behavior may be controlled with the `CXX_STANDARD_REQUIRED` target property.\n\n' +
          'This property is initialized by the value of the `CMAKE_CXX_STANDARD` variable if it is set when a target is created.',
        score: 1,
        source: {
          documentId: 'cmake-cxx-standard',
          title: 'CXX_STANDARD',
          heading: 'CXX_STANDARD',
          headingPath: ['CXX_STANDARD'],
        },
      },
    ]);
    expect(body).toMatch(/23: New in version 3\.20\. \[1\]/);
  });
});

describe('composeExtractiveAnswer on the version that changed a default (Sphinx\'s "Changed in version" notes)', () => {
  const configuration = (text: string): SearchHit[] => [
    {
      text,
      score: 1,
      source: {
        documentId: 'sphinx-configuration',
        title: 'Configuration — Sphinx documentation',
        heading: 'Options for manual page output',
        headingPath: ['Configuration', 'Options for manual page output'],
      },
    },
  ];

  it('quotes the note dating the change, not the entry\'s list of values, for "since which version … by default"', () => {
    const { body } = answerTo(
      "Since which version does autodoc drop the module names from type hints (the 'short' format) by default?",
      configuration(
        'autodoc_typehints_format\n: This value controls the format of typehints. The setting takes the following values:\n\n' +
          "-   `'fully-qualified'` – Show the module name and its name of typehints\n\n" +
          "-   `'short'` – Suppress the leading module names of the typehints (ex. `io.StringIO` -> `StringIO`) (default)\n\n" +
          ': New in version 4.4.\n\n' +
          ": Changed in version 5.0: The default setting was changed to `'short'`\n\n" +
          'autodoc_preserve_defaults\n: If True, the default argument values of functions will be not evaluated on generating document.\n',
      ),
    );
    expect(body).toContain('Changed in version 5.0');
  });

  it('quotes each of two notes that date changes of different versions, though they share nearly all their words', () => {
    const { body } = answerTo(
      'In which version did man_make_section_directory go back to being enabled by default?',
      configuration(
        'man_show_urls\n: If true, add URL addresses after links. Default is `False`.\n\n: New in version 1.1.\n\n' +
          'man_make_section_directory\n: If true, make a section directory on build man page. Default is True.\n\n' +
          ': New in version 3.3.\n\n' +
          ': Changed in version 4.0: The default is changed to `False` from `True`.\n\n' +
          ': Changed in version 4.0.2: The default is changed to `True` from `False` again.\n',
      ),
    );
    expect(body).toContain('Changed in version 4.0.2');
  });

  it("quotes, of an entry's change notes, the one about what the question asks, not the first", () => {
    const { body } = answerTo(
      'Since which Sphinx version is autosummary_generate turned on by default?',
      configuration(
        'autosummary_context\n: A dictionary of values to pass into the template engine’s context for autosummary stubs files.\n\n' +
          ': New in version 3.1.\n\n' +
          'autosummary_generate\n: Boolean indicating whether to scan all found documents for autosummary directives, ' +
          'and to generate stub pages for each. It is enabled by default.\n\n' +
          ': Can also be a list of documents for which stub pages should be generated.\n\n' +
          ': The new files will be placed in the directories specified in the `:toctree:` options of the directives.\n\n' +
          ': Changed in version 2.3: Emits `autodoc-skip-member` event as `autodoc` does.\n\n' +
          ': Changed in version 4.0: Enabled by default.\n',
      ),
    );
    expect(body).toContain('Changed in version 4.0: Enabled by default.');
  });

  it('reads a question asking in which version a default changed as asking for a change note', () => {
    const asked = classifyQuestion(
      'Since which Sphinx version is autosummary_generate turned on by default?',
    );
    expect(asked.changed).toBe(true);
    expect(asked.statement?.test('Changed in version 4.0: Enabled by default.')).toBe(true);
    expect(classifyQuestion('Since which version is the option available?').changed).toBe(false);
  });
});

describe('composeExtractiveAnswer on a list of names in code, each with what it is for', () => {
  it('quotes the item whose words the question names whole, not a long sentence sharing its common words', () => {
    const { body } = answerTo(
      "In Python's style convention for reST headings, which character underlines subsubsections?",
      [
        {
          text:
            '## Sections\n\nSection headers (ref) are created by underlining (and optionally overlining) the section title ' +
            'with a punctuation character, at least as long as the text:\n\n```\n=================\nThis is a heading\n=================\n```\n\n' +
            'Normally, there are no heading levels assigned to certain characters as the structure is determined from the ' +
            'succession of headings. However, this convention is used in Python’s Style Guide for documenting which you may follow:\n\n' +
            '-   `#` with overline, for parts\n\n-   `*` with overline, for chapters\n\n-   `=` for sections\n\n' +
            '-   `-` for subsections\n\n-   `^` for subsubsections\n\n-   `"` for paragraphs\n\n' +
            'Of course, you are free to use your own marker characters (see the reST documentation), and use a deeper nesting ' +
            'level, but keep in mind that most target formats (HTML, LaTeX) have a limited supported nesting depth.',
          score: 1,
          source: {
            documentId: 'sphinx-basics',
            title: 'reStructuredText Primer — Sphinx documentation',
            heading: 'Sections',
            headingPath: ['reStructuredText Primer', 'Sections'],
          },
        },
      ],
    );
    expect(body).toContain('- `^` for subsubsections [1]');
  });
});

describe('composeExtractiveAnswer on one short page per command (LaTeX2HTML manuals)', () => {
  const commandPage = (documentId: string, heading: string, text: string): SearchHit => ({
    text: `## ${heading}\n\n${text}`,
    score: 1,
    source: { documentId, title: heading, heading, headingPath: [heading] },
  });

  it('quotes a sentence whole when a quoted "!" inside it is followed by a lowercase word', () => {
    const { body } = answerTo('Which characters begin comment lines in a data file by default?', [
      commandPage(
        'commentschars',
        'Set datafile commentschars',
        'The command specifies what characters can begin comment lines in a data file. ' +
          'Default value of the string is "#!" on VMS and "#" otherwise.',
      ),
    ]);
    expect(body).toContain('Default value of the string is "#!" on VMS and "#" otherwise. [1]');
  });

  /** An entry whose name a LaTeX manual sets in the margin, which the PDF loader makes its heading. */
  const marginEntry = (name: string, text: string): SearchHit => ({
    text: `#### ${name}\n\n${text}`,
    score: 1,
    source: {
      documentId: 'biblatex',
      title: 'biblatex',
      page: 135,
      heading: name,
      headingPath: ['3 User Guide', '3.12.4 Lengths and Counters', name],
    },
  });
  const urlCounter =
    'If this counter is set to a value greater than zero, biblatex will permit linebreaks after numbers ' +
    'in all strings formatted with the \\url command. Setting the counter to zero disables this feature.';

  it('names the entry a sentence describes, from its heading, when the question asks which one', () => {
    const { body } = answerTo('Which counter lets biblatex break URLs after numbers?', [
      marginEntry('biburlnumpenalty', urlCounter),
    ]);
    expect(body).toMatch(/^biburlnumpenalty: If this counter is set to a value greater than zero/);
  });

  it("quotes an option's values line with the option's name from the margin (maxnames=〈integer〉)", () => {
    const { body } = answerTo('By default, how many names can a name list hold before it is truncated?', [
      marginEntry(
        'maxnames',
        '=〈integer〉 default: 3\n\nA threshold affecting all lists of names (author, editor, etc.). If a list ' +
          'exceeds this threshold, i. e., if it holds more than 〈integer〉 names, it is automatically truncated.',
      ),
    ]);
    expect(body).toContain('maxnames=〈integer〉 default: 3 [1]');
  });

  it('does not take a heading of plain words for an entry name', () => {
    const { body } = answerTo('Which counter lets biblatex break URLs after numbers?', [
      marginEntry('Penalties', urlCounter),
    ]);
    expect(body).toMatch(/^If this counter is set to a value greater than zero/);
  });

  it("shows a PDF's asterisks as written when the answer is read as Markdown", () => {
    const { body } = answerTo('Does (*) open a comment in WhyML?', [
      marginEntry('Comments', 'Comments are enclosed in (* and *). Note that (*) does not start a comment.'),
    ]);
    expect(markdownToPlainText(body)).toContain('Note that (*) does not start a comment. [1]');
  });

  it('shows a backslash before punctuation as written when the answer is read as Markdown', () => {
    const { body } = answerTo('What is the default value of the PS1 prompt string?', [
      manual(
        'PS1 is the primary prompt string. The default value is ‘\\s-\\v\\$ ’.',
        'bash',
        'Bash Variables',
      ),
    ]);
    expect(markdownToPlainText(body)).toContain('The default value is ‘\\s-\\v\\$ ’. [1]');
  });

  it('quotes a table row however short when it holds what the question names (2.18 | 3.18)', () => {
    const { body } = answerTo('Which biber version matches biblatex 3.18?', [
      manual(
        'Table 1: biber/biblatex compatibility matrix\n\nBiber version\n: biblatex version\n\n2.18 | 3.18\n\n2.17 | 3.17\n\n2.16 | 3.16',
        'biblatex',
        'Compatibility',
      ),
    ]);
    expect(body).toContain('2.18 | 3.18 [1]');
  });

  it('quotes the table row one of whose cells is the literal the question asks about (===)', () => {
    const { body } = answerTo('What does the === comparison operator mean in a Wireshark display filter?', [
      manual(
        'You can build display filters that compare values using a number of different comparison operators. ' +
          'A complete list of available comparison operators is shown in Table 6.6.\n\n' +
          'English: eq | Alias: any_eq | C-like: == | Description: Equal (any if more than one)\n\n' +
          'Alias: all_eq | C-like: === | Description: Equal (all if more than one)',
        'wireshark',
        'Display Filter comparison operators',
      ),
    ]);
    expect(body).toContain('Alias: all_eq | C-like: === | Description: Equal (all if more than one) [1]');
  });

  it('does not take a plain word every sibling row has in one column (sub_type) for the name of each', () => {
    const question = 'What is spline sub_type 5 in the Fig format?';
    const { sentences } = prepareExtractiveAnswer({
      question,
      retrievalQuery: question,
      namespace: 'docs',
      hits: [
        manual(
          'Object: polyline | Field: sub_type | Values: 1: polyline 2: box 3: polygon\n\n' +
            'Object: spline | Field: sub_type | Values: 0: open approximated spline 5: closed x-spline',
          'xfig',
          'Fig Format 3.2',
        ),
      ],
    });
    // The spline row is named by its first cell, a question term; the polyline row by nothing.
    expect(sentences.map(({ features }) => features?.entry)).toEqual([0, 1]);
  });

  it('quotes a sentence whole when a name in it has a full stop before a capital (USB1.DP)', () => {
    const { body } = answerTo('What nets does the bus USB1{DP DM} generate?', [
      manual(
        'Group buses bundle signals. The bus `USB1{DP DM}` will generate nets called `USB1.DP` and `USB1.DM`. ' +
          'For designs with larger buses, aliases help.',
        'eeschema',
        'Group buses',
      ),
    ]);
    expect(body).toContain('The bus `USB1{DP DM}` will generate nets called `USB1.DP` and `USB1.DM`. [1]');
  });

  it('quotes a sentence whole when a quoted value starts with "?" and a symbol follows it', () => {
    const { body } = answerTo('What is the default PS3 prompt used within a select loop?', [
      manual(
        'PS3 <S>\n: Selection prompt used within a select loop. It is expanded in the same way as PS1. ' +
          'The default is ‘?# ’.',
        'parameters',
      ),
    ]);
    expect(body).toContain('The default is ‘?# ’. [1]');
  });

  it('counts the page heading the question names for a sentence that does not repeat it', () => {
    const { body } = answerTo('What is the default output size of the pdfcairo terminal?', [
      commandPage(
        'pdfcairo',
        'Pdfcairo',
        'The pdfcairo terminal device generates output in pdf. ' +
          'The default size for the output is 5 inches x 3 inches. ' +
          'If you do not provide it, the pdfcairo terminal will use a nominal font size of 12 points. ' +
          'However, the default fontscale parameter for this terminal is 0.5, so the apparent font size is smaller. ' +
          'FontSize is the font size, in points, of the pdfcairo terminal.',
      ),
      commandPage(
        'cairo',
        'Cairo terminals',
        'The pdfcairo, pngcairo and wxt terminals share the cairo library; the default font size of the pdfcairo terminal is set by fontscale.',
      ),
    ]);
    expect(body).toMatch(/^Pdfcairo: .*The default size for the output is 5 inches x 3 inches\. \[1\]/);
  });
});

describe('composeExtractiveAnswer on listings of names beside what they do', () => {
  const random = manual(
    'The function **rand()** produces a sequence of pseudo-random numbers between 0 and 1.\n\n' +
      '```\n\n     rand(0)     returns a pseudo random number in the open interval (0:1)\n' +
      '                 generated from the current value of two internal\n                 32-bit seeds.\n' +
      '     rand(-1)    resets both seeds to a standard value.\n' +
      '     rand(x)     for integer 0 < x < 2^31-1 sets both internal seeds\n                 to x.\n```',
    'random',
    'Random number generator',
  );

  it('quotes the entry of the listing that the question names by its call', () => {
    const { body } = answerTo('What does rand(-1) do?', [random]);
    expect(body).toContain('`rand(-1)` resets both seeds to a standard value. [1]');
  });

  it('quotes an entry with the deeper-indented lines that continue it', () => {
    const { body } = answerTo('What does rand(0) return?', [random]);
    expect(body).toContain(
      '`rand(0)` returns a pseudo random number in the open interval (0:1) generated from the current value of two internal 32-bit seeds. [1]',
    );
  });
});

describe('composeExtractiveAnswer on sentences that lead to the answer', () => {
  const page = (text: string, title: string, headingPath: string[] = [title]): SearchHit => ({
    text,
    score: 1,
    source: { documentId: title, title, heading: headingPath.at(-1), headingPath },
  });

  it('quotes the sentence saying where, after the one the question words match, when the question asks where', () => {
    // The GNU Prolog manual: the sentence naming Windows and the registry says keys are consulted;
    // the one after it says where they are, and shares no word with the question. Other passages
    // about stack sizes fill the answer before the best sentence's next one gets room.
    const { body } = answerTo(
      'On Windows, where in the registry does GNU Prolog look for stack size settings?',
      [
        page(
          'Stack: atoms | Default: 32768 | Environment: MAX ATOM | Description: atom table\n\n' +
            'In addition, under Windows (since version 1.4.0), registry keys are consulted (key names are the same ' +
            'as environment names). The keys are stored in HKEY CURRENT USER\\Software\\GnuProlog\\.\n\n' +
            'If the size of a stack is too small an overflow will occur during the execution.',
          'Adjusting the size of Prolog data',
        ),
        page(
          'GNU Prolog uses several stacks to execute a Prolog program. Each stack has a static size and cannot be ' +
            'dynamically increased. For each stack there is a default size but the user can define a new size by ' +
            'setting an environment variable. The following table presents each stack of GNU Prolog with its default ' +
            'size and the name of its associated environment variable:',
          'Adjusting the size of Prolog data',
        ),
        page(
          'Finally note that GNU Prolog stacks are virtually allocated. Thus it is possible to define very large ' +
            'stacks. This method allows the user to adjust the size of Prolog stacks on Windows and Unix.',
          'Adjusting the size of Prolog data',
        ),
      ],
    );
    expect(markdownToPlainText(body)).toContain(
      'The keys are stored in HKEY CURRENT USER\\Software\\GnuProlog\\.',
    );
  });

  it('quotes what a sentence ending in a colon announces with it', () => {
    const { body } = answerTo('Which values can CMAKE_FIND_PACKAGE_SORT_DIRECTION assume?', [
      page(
        'The sorting direction used by `CMAKE_FIND_PACKAGE_SORT_ORDER`. CMAKE_FIND_PACKAGE_SORT_DIRECTION can assume one of the following values:\n\n' +
          'DEC\n: Ordering is done in descending mode. The highest folder found will be tested first.\n\n' +
          'ASC\n: Ordering is done in ascending mode. The lowest folder found will be tested first.',
        'CMAKE_FIND_PACKAGE_SORT_DIRECTION',
      ),
    ]);
    expect(body).toMatch(
      /can assume one of the following values: \[1\] DEC: Ordering is done in descending mode\. \[1\]/,
    );
  });

  it('quotes the item of the announced list the question names, not only the first', () => {
    // A reentrant API page: the return codes listed after the sentence announcing them.
    const { body } = answerTo('yylex_init failed; which errno value means I passed it a bad argument?', [
      page(
        'The reentrant version takes one argument, which is the value returned (via an argument) by `yylex_init`.\n\n' +
          'Both `yylex_init` and `yylex_init_extra` returns 0 (zero) on success, or non-zero on failure, ' +
          'in which case errno is set to one of the following values:\n\n' +
          '-   ENOMEM Memory allocation error. See memory-management.\n-   EINVAL Invalid argument.\n\n' +
          'The function `yylex_destroy` should be called to free resources used by the scanner.',
        'Init and Destroy Functions',
      ),
    ]);
    expect(body).toMatch(/set to one of the following values: \[1\] - EINVAL Invalid argument\. \[1\]/);
  });

  it('quotes the sentence giving the number when the question asks how many, past one that only marks the default', () => {
    const { body } = answerTo(
      'With date completion in a sliding 12-month window, how many months back does it go by default?',
      [
        page(
          '• Date completion: This option lets you manage the case when a date is entered without a year. ' +
            '• In a sliding 12-month window starting a configurable number of months before the current month: (Default) Dates will be completed so that they are close to the current date. ' +
            'You can enter the maximum number of months to go backwards in time when completing dates in a range of 0…11 with 6 as default.',
          'Numbers, Date, Time',
        ),
      ],
    );
    expect(body).toContain('with 6 as default');
  });

  it('quotes the instruction after a sentence saying that something can be done when asked how to do it', () => {
    const { body } = answerTo("How can I make GnuCash's invoice numbers start at a number other than 1?", [
      page(
        'By default, GnuCash starts with invoice number 1 and increments from there. ' +
          'You can manually type an invoice number into the text box each time you create an invoice, but this gets tiring. ' +
          'You can change the starting invoice number if it is important to you. ' +
          'Use File → Properties, access the Counters tab, change the Invoice number value to be one less than your desired starting invoice number and click the OK button.',
        'Accounts Receivable',
        ['Business Features', 'Accounts Receivable'],
      ),
      page(
        'Invoice numbers are printed at the top of every invoice, beside the date the invoice was posted.',
        'Printing invoices',
      ),
    ]);
    expect(body).toContain('access the Counters tab');
  });

  it('quotes the sentence saying how what the one before wants is achieved, when asked how after what the user did', () => {
    // The GNU Prolog manual: the question opens with what the user did, then asks how; the
    // sentence its words match says what is desirable, the one after how it is achieved.
    const { body } = answerTo(
      'I linked my own top-level with gplc; how do I make it accept --init-goal and the other top-level command-line options?',
      [
        page(
          'Here is the compilation command: % gplc -o my top level prog.pl utils.c\n\n' +
            'To obtain a fully extended executable, it is desirable to accept the same set of opions as the original ' +
            'top-level, see (section 4.2, page 13), e.g. --init-goal. For this it is necessary to link main() function ' +
            'used by the original top-level. This can be achieved passing the --new-top-level to gplc:',
          'Defining a new top-level',
        ),
        page(
          '--init-goal GOAL | execute GOAL before entering the top-level\n\n' +
            '--entry-goal GOAL | execute GOAL inside the top-level\n\n' +
            '--query-goal GOAL | execute GOAL as a query for the top-level',
          'The GNU Prolog interactive interpreter',
        ),
        page(
          'Several options are provided to execute a goal before entering the interaction with the user:\n\n' +
            '• The --init-goal option executes the GOAL as soon as it is encountered (while the command-line is ' +
            'processed). GOAL is thus executed before entering top level/0.\n\n' +
            '• The --entry-goal option executes the GOAL at the entry of top level/0.',
          'The GNU Prolog interactive interpreter',
        ),
      ],
    );
    expect(body).toContain('This can be achieved passing the --new-top-level to gplc:');
    expect(classifyQuestion('With line breaking on, how do I keep words whole?').action).toBe('instruction');
  });

  it('quotes the row naming an option when asked which option does something', () => {
    // The GNU Prolog manual: the sentence sharing the question's words says "a specific option";
    // the option table's row naming it shares fewer, below half the best sentence's score.
    const { body } = answerTo(
      'Which gplc option produces a WAM file for byte-code that I can later load with load/1?',
      [
        page(
          'Byte-code compilation: the same compiler can be used to compile a source Prolog file for byte-code. ' +
            'In that case the Prolog to WAM compiler is invoked using a specific option and produces a WAM for ' +
            'byte-code source file (suffixed .wbc) that can be later loaded using load/1.',
          'Compilation scheme',
        ),
        page(
          'When consult/1 is invoked on a Prolog file it first runs the GNU Prolog compiler as a child process to ' +
            'generate a temporary WAM file for byte-code. If the compilation succeeds, the produced file is loaded ' +
            'into memory using load/1.',
          'Consulting a Prolog program',
        ),
        page(
          'By default the GNU Prolog compiler produces native-code but via a command-line option it can produce a ' +
            'file ready for byte-code loading. Byte-code can be debugged, native code cannot.',
          'Different kinds of codes',
        ),
        page(
          'General options:\n\n' +
            '-o FILE, --output FILE | use FILE as the name of the output file\n\n' +
            '-W, --wam-for-native | stop after producing WAM file(s)\n\n' +
            '-w, --wam-for-byte-code | stop after producing WAM for byte-code file(s) (force --no-call-c)\n\n' +
            '-M, --mini-assembly | stop after producing mini-assembly file(s)',
          'Using the compiler',
        ),
      ],
    );
    expect(body).toContain('-w, --wam-for-byte-code | stop after producing WAM for byte-code file(s)');
    expect(classifyQuestion('What does the command line option -p do?').option).toBe(false);
  });

  it('quotes the sentence ordering things when asked in what order they happen', () => {
    // The GNU Prolog manual: "The above order …" shares the question's words but says only that
    // there is an order; the sentence after it orders the goals, and the answer has no room for it.
    const { body } = answerTo(
      'If I give gprolog --query-goal, --entry-goal and --init-goal together, in what order do the goals run?',
      [
        page(
          'The above order is thus the order in which each kind of goal (init, entry, query) is executed. If there ' +
            'are several goals of a same kind they are executed in the order of appearance. Thus, all init goals ' +
            'are executed (in the order of appearance) before all entry goals and all entry goals are executed ' +
            'before all query goals.',
          'The top-level',
        ),
        page(
          '--init-goal GOAL | execute GOAL before entering the top-level\n\n' +
            '--entry-goal GOAL | execute GOAL inside the top-level\n\n' +
            '--query-goal GOAL | execute GOAL as a query for the top-level',
          'Options of the top-level',
        ),
        page(
          'Here is an example of using execution goal options: the --init-goal, --entry-goal and --query-goal ' +
            'options each run one goal. Each GOAL is passed as a shell argument and should not contain a terminal ' +
            'dot. The --query-goal option executes the GOAL as if the user has typed it in.',
          'The top-level',
        ),
      ],
    );
    expect(body).toContain('all init goals are executed (in the order of appearance) before all entry goals');
  });

  it('quotes the key combination after the sentence naming what the key does when a shortcut is asked', () => {
    const { body } = answerTo('Which keyboard accelerator opens the Search & Replace panel?', [
      page(
        'The Search/Replace entry in the Edit menu will popup the Search & Replace Panel. It is also bound to Meta-I.',
        'Search/Replace/Update',
      ),
      page(
        'Spell Check... in the Edit menu or keyboard accelerator Meta-K will popup the Spell Check Panel.',
        'Spell Check',
      ),
    ]);
    expect(body).toContain('It is also bound to Meta-I.');
  });
  it('counts a word the manual writes joined ("RedHat") for the two words of the question ("Red Hat")', () => {
    const { body } = answerTo(
      'Where are the NUT configuration files located on Red Hat and its derivatives?',
      [
        page(
          'Configuration files are located in /etc/nut. nut.conf(5) must be edited to be able to invoke /etc/init.d/nut. ' +
            'The official Red Hat packager is part of the NUT Team. ' +
            'NUT packages are located on the Red Hat mirrors with the other packages of the release.',
          'Installing from packages',
        ),
        page(
          'Changes the location where NUT’s configuration files are stored. By default this path is <prefix>/etc.',
          'Installation directories',
        ),
        page(
          'Create one section per UPS in ups.conf. ' +
            'The default path for a source installation is /usr/local/ups/etc, while packaged installation will vary. ' +
            'For example, /etc/nut is used on Debian and derivatives, while /etc/ups or /etc/upsd is used on RedHat and derivatives.',
          'Driver configuration',
        ),
      ],
    );
    expect(body).toContain('/etc/ups or /etc/upsd is used on RedHat and derivatives');
  });

  it('quotes the sentence giving a command after announcing it when a command is asked', () => {
    const { body } = answerTo(
      'What command does the support section give for getting driver debug output to include in a help request?',
      [
        page(
          'Use the NUT Users mailing list. In this case, be sure to include the following information:\n\n' +
            '• OS name and version,\n\n• exact NUT version,\n\n' +
            '• complete problem description, with any relevant traces, like system log excerpts, and driver debug output. ' +
            'You can obtain the latter using the following command, running as root and after having stopped NUT: /path/to/driver -DD -a <upsname>\n\n' +
            'If you don’t include the above information in your help request, we will not be able to help you!',
          'Mailing lists',
        ),
        page(
          'Developers are kindly requested to report vendor contributions to the NUT team so this list may reflect their help, as well as convey a sense of official support.',
          'Acknowledgements',
        ),
        page('If upsd returns ERR UNKNOWN-COMMAND to a GET request, you need to use REQ.', 'Compatibility'),
        page(
          'The upsdrvctl command passes the -D options it is given on to each driver, which writes more debug output at each. ' +
            'The debug output of a driver started as a service goes to the system log, as its other output does.',
          'Driver debugging',
        ),
        page(
          'Some UPS hardware and drivers support the notion of an instant command, such as starting a battery test.',
          'Instant commands',
        ),
      ],
    );
    expect(body).toContain('/path/to/driver -DD -a <upsname>');
  });
  it('quotes the list item opening with the value the question quotes, though a neighbour quoted before it holds its words', () => {
    // "• charging: battery is charging," is quoted as the neighbour of the sentence announcing the
    // list: it makes no repeat of the resting item, which holds both its words and more.
    const { body } = answerTo("What does the 'resting' value of battery.charger.status mean?", [
      page(
        'Name: battery.charge | Description: Battery charge (percent) | Example value: 100.0\n\n' +
          'Name: battery.charger.status | Description: Status of the battery charger (see the note below) | Example value: charging\n\n' +
          'Name: battery.voltage | Description: Battery voltage (V) | Example value: 24.84',
        'battery: Any battery details',
      ),
      page(
        'NOTE: battery.charger.status replaces the historic flags CHRG and DISCHRG that were exposed through ups.status. ' +
          'The battery.charger.status can have one of the following values:\n\n' +
          '• charging: battery is charging,\n\n' +
          '• discharging: battery is discharging,\n\n' +
          '• floating: battery has completed its charge cycle, and waiting to go to resting mode,\n\n' +
          '• resting: the battery is fully charged, and not charging nor discharging.\n\n' +
          'Name: battery.voltage.nominal | Description: Nominal battery voltage (V) | Example value: 024',
        'battery: Any battery details',
      ),
    ]);
    expect(body).toContain('• resting: the battery is fully charged, and not charging nor discharging.');
  });

  it('quotes the list item opening with the value the question passes to a call', () => {
    // The GNU Prolog manual lists leash/1's shorthands as items; "tight" shares more of the
    // question's words (redo, call) with the sentences around the list than "half" does.
    const { body } = answerTo('Which ports does leash(half) make the debugger stop at?', [
      page(
        'leash(Ports) requests the debugger to prompt the user, as he creeps through the program, for every port ' +
          'defined in the Ports list. Each element of Ports is an atom in call, exit, redo, fail, exception. Ports can ' +
          'also be an atom defining a shorthand:\n\n' +
          '• full: equivalent to [call, exit, redo, fail, exception]\n\n' +
          '• half: equivalent to [call, redo]\n\n' +
          '• loose: equivalent to [call]\n\n' +
          '• none: equivalent to []\n\n' +
          '• tight: equivalent to [call, redo, fail, exception]\n\n' +
          'When an unleashed port is encountered the debugger continues to show the associated goal but does not ' +
          'stop the execution to prompt the user.',
        'Leashing ports',
      ),
      page(
        'When the debugger reaches a leashed port it shows the current goal followed by the ? prompt. ' +
          'It is possible to select the ports at which the debugger will stop using leash/1. ' +
          'The debugger shows every port for every predicate encountered during the execution. ' +
          'debugging/0 prints the debugger state: whether the debugger is on, the leashed ports, the spy-points. ' +
          'A spy-point makes the debugger stop at every port of its predicate, whatever the leashed ports.',
        'Debugging',
      ),
    ]);
    expect(body).toContain('• half: equivalent to [call, redo]');
  });

  it('quotes a sentence pointing back at the one before it, which the question words match, with it', () => {
    // "They are maintained …" shares one word with the question; what "They" are is in the
    // sentence before, which alone does not say how long.
    const { body } = answerTo('For how long are branches with an odd second digit maintained?', [
      page(
        'Branches are numbered with two digits. Since 1.9, branches with an odd second digit are mostly focused on ' +
          'sensitive technical updates and more aimed at advanced users. They are maintained for about a year only ' +
          'and must not be deployed where they cannot be rolled back.\n\n' +
          'Branches with an even second digit are long-term supported and maintained for several years.',
        'Version numbering',
      ),
    ]);
    expect(body).toMatch(
      /Since 1\.9, branches with an odd second digit .* \[1\] They are maintained for about a year/,
    );
  });

  it('reads a sentence opening "In addition," with the sentence before it, whose option the question names', () => {
    // What else the option does is said in the sentence after the one naming it, which alone
    // names no option; other options' sentences share the question's words about fonts and sizes.
    const { body } = answerTo(
      'Besides the font sizes, what does headings=standardclasses change about the font of headings?',
      [
        page(
          'The headings=standardclasses option adjusts the font sizes of the headings to those of the standard ' +
            'classes. In addition, the font for the disposition element is set to \\bfseries. It therefore no ' +
            'longer uses a sans-serif font for the headings.\n\n' +
            'The headings=big option uses large font sizes for the headings and the font of the headings is ' +
            'sans-serif. The headings=small option uses small font sizes for the headings.\n\n' +
            'The headings=normal option uses medium font sizes for the headings of the document.',
          'Headings',
        ),
      ],
    );
    expect(body).toContain('In addition, the font for the disposition element is set to \\bfseries.');
  });

  it('reads the example a sentence right under it explains when the question names the example', () => {
    const { body } = answerTo('What does the call substring("123456789", 1, -2) return?', [
      page(
        'In the following example a substring is created, starting with the 4th character and being 5 characters long.\n\n' +
          '```\nsubstring("123456789", 3, 5)\n```\n\n' +
          'This example will result in the substring “45678”.\n\n' +
          'In the following example the first and the last character of the string will be removed.\n\n' +
          '```\nsubstring("123456789", 1, -2)\n```\n\n' +
          'This example will result in the substring “2345678”.\n\n' +
          'Note the -2 value for the substring length. As the extraction skips the first character, you only need a ' +
          'substring of strlen(“123456789”) - 2 characters.',
        'substring()',
      ),
    ]);
    expect(body).toContain('This example will result in the substring “2345678”.');
  });

  it('reads a sentence naming "this behavior" with the sentence describing the behavior', () => {
    const { body } = answerTo(
      'Which /etc/exports option disables the mapping of root requests to the nobody user?',
      [
        page(
          'In order to not give root access to the filesystem to any NFS client, all queries appearing to come from a ' +
            'root user are considered by the server as coming from the `nobody` user. This behavior corresponds to the ' +
            '`root_squash` option, and is enabled by default. The `no_root_squash` option, which disables this behavior, ' +
            'is risky and should only be used in controlled environments. If all users should be mapped to the user ' +
            '`nobody`, use `all_squash`.',
          'NFS Server',
        ),
        page(
          'The super-user root account, reserved for the machine administrator, is automatically created during ' +
            'installation. The nobody user owns no files and is used by daemons that need no rights. ' +
            'Requests of the root user are logged. The nobody user maps requests of unknown users.',
          'User accounts',
        ),
        page(
          '- user authorizes all users to mount this filesystem (an operation which would otherwise be restricted to ' +
            'the root user).\n- noauto disables the mounting of this filesystem at boot.',
          'Mounting filesystems',
        ),
      ],
    );
    // Read with the sentences it names, it outranks the other passages' sentences about root and nobody.
    expect(body).toMatch(
      /^This behavior corresponds to the `root_squash` option.* \[1\] The `no_root_squash` option, which disables this behavior, [^[]*\[1\]/,
    );
  });

  it('shows the short code a sentence ending in a colon announces after it', () => {
    const { body } = answerTo('Which rsyslogd command line checks just a configuration include file?', [
      page(
        'To check a full rsyslog configuration, run rsyslog interactively as follows:\n\n' +
          '```\n$ /path/to/rsyslogd -f/path/to/config-file -N1\n```\n\n' +
          'You should also specify other options you usually give.\n\n' +
          'If you would like to check just an include file, instead use:\n\n' +
          '```\n$ /path/to/rsyslogd -f/path/to/config-file -N3\n```',
        'Troubleshooting',
      ),
    ]);
    expect(body).toContain(
      'If you would like to check just an include file, instead use: `$ /path/to/rsyslogd -f/path/to/config-file -N3` [1]',
    );
  });

  it('shows a block of a few lines a sentence ending in a colon announces, such as the defines to change', () => {
    // A FAQ reply: the defines to raise are in the four-line block the sentence announces.
    const { body } = answerTo('Which defines in flexdef.h do I raise for more than 32000 NFA states?', [
      page(
        'Yes. I have appended instructions on how.\n\n' +
          'To increase the 32K limit (on a machine with 32 bit integers), you increase\n' +
          'the magnitude of the following in flexdef.h:\n\n' +
          '```\n#define JAMSTATE -32766 /* marks a reference to the state that always jams */\n' +
          '#define MAXIMUM_MNS 31999\n#define BAD_SUBSCRIPT -32767\n#define MAX_SHORT 32700\n```\n\n' +
          'Adding a 0 or two after each should do the trick.',
        'Is backing up a big deal?',
      ),
    ]);
    expect(body).toContain(
      'the magnitude of the following in flexdef.h: `#define JAMSTATE -32766 /* marks a reference to the state that always jams */ #define MAXIMUM_MNS 31999 #define BAD_SUBSCRIPT -32767 #define MAX_SHORT 32700` [1]',
    );
  });

  it('reads a sentence opening "The two" with the sentence naming both', () => {
    // How the two shapes differ is said after the sentence naming them, in words the question lacks.
    const { body } = answerTo('How does an Mrecord node differ from a plain record?', [
      page(
        'Record-based nodes form the other class of node shapes. These include the shapes record and Mrecord. ' +
          'The two are identical except that the latter has rounded corners. These nodes represent recursive ' +
          'lists of fields, which are drawn as alternating horizontal and vertical rows of boxes.',
        'Node Shapes',
      ),
      page(
        'All node shapes except record and Mrecord are considered polygonal, and are modeled by the number of ' +
          'sides and a few other geometric properties. The node shape plaintext draws a node without any outline.',
        'Polygons',
      ),
    ]);
    expect(body).toContain('The two are identical except that the latter has rounded corners.');
  });

  it('reads a sentence opening "If this is not set" with the sentence naming what is not set', () => {
    // The fallbacks name neither the attribute nor the style; the sentences before them do.
    const { body } = answerTo('A node has style=filled but no fillcolor: what color fills it?', [
      page(
        'The style for nodes can also include filled, diagonals and rounded. A filled node is shaded inside ' +
          'using the color fillcolor. If this is not set, the value of color is used. If this also is unset, ' +
          'light grey is used as the default. The diagonals style draws short lines near each vertex.',
        'Graphics Styles',
      ),
      page(
        'color | black | for clusters, outline color, and fill color if fillcolor not defined\n\n' +
          'fillcolor | black | cluster fill color\n\nstyle | graphics options, e.g. filled for clusters',
        'Principal Graph Attributes',
      ),
    ]);
    expect(body).toContain('If this also is unset, light grey is used as the default.');
  });
});

describe("composeExtractiveAnswer on lists of codes (a Texinfo manual's appendices)", () => {
  it('quotes the entry of a list of codes whose whole definition the question names', () => {
    const { body } = answerTo('What is the ISO 3166 country code of Switzerland?', [
      {
        text:
          '# B. Country Codes\n\nThe ISO 3166 standard defines two character codes for many countries and territories. ' +
          'All abbreviations for countries used in the Translation Project should come from this standard.',
        score: 2,
        source: {
          documentId: 'gettext_19',
          title: 'B. Country Codes',
          heading: 'B. Country Codes',
          headingPath: ['B. Country Codes'],
        },
      },
      {
        text: "‘CF’\n: Central African Republic.\n\n‘CG’\n: Congo.\n\n‘CH’\n: Switzerland.\n\n‘CI’\n: Côte d'Ivoire.",
        score: 1,
        source: {
          documentId: 'gettext_19',
          title: 'B. Country Codes',
          heading: '‘CF’',
          headingPath: ['B. Country Codes', '‘CF’'],
        },
      },
    ]);
    expect(body).toContain('‘CH’: Switzerland.');
  });
});

describe('classifyQuestion', () => {
  it('takes a release number after "Since" alone as a statement of when an entry appeared', () => {
    const asked = classifyQuestion('Since which libvirt version can a virtual network do NAT for IPv6?');
    expect(asked.statement?.test('Since 6.5.0 it is possible to enable NAT with IPv6 networking.')).toBe(
      true,
    );
    expect(asked.statement?.test('Since 2 of the guests share a network, NAT is used.')).toBe(false);
  });

  it('reads once what a question asks for: a default, an amount, a unit, a bound, an action', () => {
    const asked = classifyQuestion('How many seconds does mailcheck wait by default?');
    expect(asked).toMatchObject({ default: true, value: true, amount: true, unit: false, whatItIs: false });
    expect(asked.measures.size).toBe(1);
    expect(asked.statement?.test('The default is 60 seconds.')).toBe(true);
    expect(classifyQuestion('In what unit is KEYTIMEOUT measured?')).toMatchObject({
      unit: true,
      default: false,
    });
    expect(classifyQuestion('What is the maximum number of columns in a table?')).toMatchObject({
      bound: true,
      value: true,
    });
    expect(classifyQuestion('How do I enable trading accounts?').action).toBe('instruction');
    expect(classifyQuestion('Which keyboard shortcut saves the file?').action).toBe('key');
    expect(classifyQuestion('What does %h log?')).toMatchObject({ whatItIs: true, value: false });
    expect(classifyQuestion('Since which version is the option available?').since).toBe(true);
    expect(classifyQuestion('summarize the installation chapter').summary).toBe(true);
  });

  it('reads "where is … stored" as asking for a place, and "where" opening a clause not', () => {
    const asked = classifyQuestion(
      'On Windows, where in the registry does GNU Prolog look for stack size settings?',
    );
    expect(asked.place).toBe(true);
    expect(asked.statement?.test('The keys are stored in HKEY CURRENT USER\\Software\\GnuProlog\\.')).toBe(
      true,
    );
    expect(classifyQuestion("Where is a user's crontab stored once edited?").place).toBe(true);
    expect(
      classifyQuestion(
        'How do I make a listing continue the line numbers where the previous listing stopped?',
      ).place,
    ).toBe(false);
    expect(classifyQuestion('Where does it store cache files by default?')).toMatchObject({
      place: false,
      default: true,
    });
  });

  it('reads what holds when the user gives none ("when I don\'t specify one") as asking for the default', () => {
    const asked = classifyQuestion("What shape does dot give a node when I don't specify one?");
    expect(asked.default).toBe(true);
    expect(asked.statement?.test('Nodes are drawn, by default, with shape=ellipse.')).toBe(true);
    expect(classifyQuestion('What font does dot use for labels unless told otherwise?').default).toBe(true);
    // In the manual's own words, not the user's: the manual answers it as it is asked.
    expect(classifyQuestion('If PS3 is not set, what prompt does select print?').default).toBe(false);
    expect(classifyQuestion('Which shapes can I specify for a node?').default).toBe(false);
  });

  it('reads "if I don\'t choose one", "unless I ask for another one", "when I pass no option" as asking for the default', () => {
    const mode = classifyQuestion("Which smoke detector mode does replay use if I don't choose one?");
    expect(mode.default).toBe(true);
    expect(mode.value).toBe(true);
    expect(mode.statement?.test('Try to detect if the context is self-contradicting (default: top).')).toBe(
      true,
    );
    expect(
      classifyQuestion('Which style does session html produce unless I ask for another one?').default,
    ).toBe(true);
    expect(classifyQuestion('What does wc count when I pass no option at all?').default).toBe(true);
    expect(classifyQuestion('Which transformation can I choose for a goal?').default).toBe(false);
    expect(classifyQuestion('Which style do I ask for to get a tree?').default).toBe(false);
  });
});

describe('composeExtractiveAnswer on release notes', () => {
  const notes = (text: string, headingPath: string[], score: number): SearchHit => ({
    text,
    score,
    source: { documentId: 'news', title: 'Plotter manual', heading: headingPath.at(-1)!, headingPath },
  });

  it('names the release whose notes add what a "which version added" question asks about', () => {
    // Gri's news: each release's heading over "New Features" and its items, no item naming the release.
    const { body } = answerTo('Which version added GNU readline support for command history?', [
      notes(
        'New Features\n\n• Add GNU readline support so that interactive mode will have history, command editing, etc.',
        [
          '13 Gri Versions',
          '13.1.1 Version 2.12',
          '13.1.1.10 Version 2.12.17 [2008 May 29 Oak Apple Day (England) (http://en.wikipedia.org/wiki/Oak_Apple_Day)]',
        ],
        3,
      ),
      notes(
        'Add readline support, to handle history, command-line editing, etc, for interactive usage.',
        ['14 Plans'],
        2,
      ),
    ]);
    expect(body).toMatch(/Version 2\.12\.17\b.*GNU readline support/);
  });

  it('reads a section number or a chapter of prose as no release', () => {
    const { body } = answerTo('Which version added GNU readline support for command history?', [
      notes(
        'Add GNU readline support so that interactive mode will have history.',
        ['13.1 Stable Stream'],
        3,
      ),
    ]);
    expect(body).not.toContain('Stable Stream');
  });
});

describe('composeExtractiveAnswer on defaults a command form states', () => {
  const reference = (text: string, heading: string, score: number): SearchHit => ({
    text,
    score,
    source: { documentId: 'ref', title: 'Plotter manual', heading, headingPath: ['9 Commands', heading] },
  });

  it('reads "unless I change them", "when I don\'t name one", "if I haven\'t set" as asking for a default', () => {
    expect(classifyQuestion('How long are the tic marks on the axes unless I change them?').default).toBe(
      true,
    );
    expect(classifyQuestion("Which method does the grid command use when I don't name one?").default).toBe(
      true,
    );
    expect(classifyQuestion("Where does open look for files when I haven't set a path?").default).toBe(true);
    expect(classifyQuestion('How long are the tic marks on the axes?').default).toBe(false);
  });

  it('quotes the command form that resets to "the default of 0.2 cm" beside a sibling sharing more words', () => {
    // Gri's `set axes style` entry, whose items speak of tic marks on axes, over the `set tic size` entry.
    const { body } = answerTo('How long are the tic marks on the axes unless I change them?', [
      reference(
        '• set axes style 0 Set axes to be rectangular, with an x-y axis frame labelled at the left and bottom and tic marks on all axes.\n\n' +
          '• set axes style 1 As style 0, but only put tics on the lower and left axes.\n\n' +
          '• set axes style 2 As style 0 but without labels or tics on any axis, i.e. just an axis frame.',
        '9.3.41.1 set axes style',
        3,
      ),
      reference(
        '#### 9.3.41.42 set tic size\n\n‘set tic size .size.|default’\n\nControl size of tics on axes.\n\n' +
          '• set tic size .size. Set tic size to .size. centimetres.\n\n• set tic size default Set tic size to default of 0.2 cm.\n\n' +
          '• set tics in|out Make axis tics point inward or outward. The default is outward.',
        '9.3.41.42 set tic size',
        2,
      ),
      reference(
        'The value of .style. determines the style of axes:\n\n• .style. = 0 Draw x-y axes frame labelled at left and bottom. ' +
          "Since this is the default, it's best to leave it out altogether.\n\n• .style. = 1 Draw axes without tics at top and right",
        '9.3.9.5 draw axes',
        1,
      ),
    ]);
    expect(body).toContain('default of 0.2 cm');
  });

  it('takes what a setting "is set to at startup time" as its default', () => {
    // Gri's `set path`: the default search path is stated only as the value set at startup.
    const { body } = answerTo(
      "Where does open look for data files when I haven't set a path with set path?",
      [
        reference(
          '#### 9.3.41.39 set path\n\nset path to "\\path"|default for data|commands\n\n' +
            'Set the directory path that open will search for data files, or that insert will search for command files. ' +
            'This search will not be done if the filename starts with a /, ~, or . character.\n\n' +
            'The path is formatted in a colon-separated manner, following the normal Unix convention, and searching is from left to right. ' +
            'For example, the path ".:/usr/lib/gri" tells Gri to search for the file first in the local directory (named .), ' +
            'and if it is not found there, to look next in the directory named /usr/lib/gri.\n\n' +
            'The indicated path is stored in either \\.path_data. or \\.path_commands., as appropriate. ' +
            'At startup time, each of these paths is set to ".", the current directory, and this value is reset if the default keyword is provided to this command.\n\n' +
            'If you need to know where the file was eventually found, save the \\.return_value. just after the open command was executed.',
          '9.3.41.39 set path',
          3,
        ),
        reference(
          'set path to "/atlases/world:/atlases/northern_hemisphere" for data open britain.dat # we don\'t know where file is ... \\gb = "\\.return_value."',
          '9.3.28.1 Opening Simple Files',
          2,
        ),
        reference(
          'ability to search for files in a "path" (Section 9.3.41.39 [Set Path To], page 127), you may not have specified an exact path name; ' +
            'this is why the open command provides a return value which names the full pathname (Section 9.3.28.1 [Opening Simple Files], page 101).',
          '9.3.33.8 read from \\filename',
          1,
        ),
      ],
    );
    expect(body).toContain('At startup time, each of these paths is set to');
  });
});

describe('the features a sentence is scored by', () => {
  it('gives each sentence its passage retrieval score as a share of the best passage', () => {
    const passages: SearchHit[] = [
      {
        text:
          'The cache directory holds compiled files. It is emptied on every upgrade of the cache.\n\n' +
          'Other directories are listed below.',
        score: 8,
        source: { documentId: 'a', title: 'Cache' },
      },
      {
        text: 'The cache directory may be moved with the CACHE_DIR variable.',
        score: 2,
        source: { documentId: 'b', title: 'Variables' },
      },
    ];
    const { sentences } = prepareExtractiveAnswer({
      question: 'Where is the cache directory?',
      retrievalQuery: 'Where is the cache directory?',
      namespace: 'docs',
      hits: passages,
    });
    const [holds, , , moved] = sentences;
    expect(holds?.features?.retrieval).toBe(1);
    expect(moved?.features?.retrieval).toBe(2 / 8);
  });
});
