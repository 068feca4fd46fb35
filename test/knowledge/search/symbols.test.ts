import { describe, expect, it } from 'vitest';
import { createChunkIndex, createTokenizer, DEFAULT_SETTINGS } from '../../../knowledge/search/index.js';
import type { ChunkIndex } from '../../../knowledge/types.js';
import { chunk, fillerChunks } from './support.js';

const tokenizer = createTokenizer(DEFAULT_SETTINGS.tokenizer);
const terms = (text: string) => tokenizer.terms(text);

/**
 * Shaped like Apache's pages on logs: mod_log_config's format table (a chunk of its rows), the
 * Common Log Format explained field by field, and prose that says "log" and holds "%{format}t".
 */
const apacheLogFormats = [
  chunk(
    'mod_log_config',
    'Format String: %h | Description: Remote hostname. Will log the IP address if HostnameLookups is ' +
      'set to Off, which is the default.\nFormat String: %l | Description: Remote logname (from identd, ' +
      'if supplied).\nFormat String: %r | Description: First line of request.\nFormat String: %s | ' +
      'Description: Status. For requests that have been internally redirected, this is the status of ' +
      'the original request. Use %>s for the final status.\nFormat String: %t | Description: Time the ' +
      'request was received, in the format [18/Sep/2011:19:18:28 -0400]. The last number indicates the ' +
      'timezone offset from GMT',
    { headingPath: ['Custom Log Formats'] },
  ),
  chunk(
    'mod_log_config',
    'Format String: %{format}t | Description: The time, in the form given by format, which should be ' +
      'in an extended strftime(3) format. If the format starts with begin: (default) the time is taken ' +
      'at the beginning of the request processing. If it starts with end: it is the time when the log ' +
      'entry gets written, close to the end of the request processing.',
    { ordinal: 1, headingPath: ['Custom Log Formats'] },
  ),
  chunk(
    'logs',
    'The access log: the format of the access log is highly configurable. The log format is specified ' +
      'using a format string that looks much like a C-style printf(1) format string. A log entry can ' +
      'hold the time taken to serve the request (%T) and the time it was received.',
    { headingPath: ['Log Files', 'Access Log'] },
  ),
  chunk(
    'logs',
    '127.0.0.1 (%h) This is the IP address of the client (remote host) which made the request to the ' +
      'server.\n- (%l) The hyphen in the output indicates that the requested piece of information is not ' +
      'available.\n200 (%>s) This is the status code that the server sends back to the client.',
    { ordinal: 1, headingPath: ['Log Files', 'Common Log Format'] },
  ),
  chunk(
    'rotatelogs',
    "rotatelogs is a simple program for use in conjunction with Apache's piped logfile feature. It " +
      'supports rotation based on a time interval or maximum size of the log. The log file name can ' +
      'hold strftime(3) formats: -t truncates the log file instead of rotating it.',
    { headingPath: ['rotatelogs - Piped logging program to rotate Apache logs'] },
  ),
];

/** Shaped like CMake's string(TIMESTAMP) entry and the release notes that name its specifiers. */
const timestampSpecifiers = [
  chunk(
    'command/string',
    'string(TIMESTAMP <output_variable> [<format_string>] [UTC])\nWrite a string representation of the ' +
      'current date and/or time to the output variable. The <format_string> may contain the following ' +
      'format specifiers:\n%% A literal percent sign (%).\n%d The day of the current month (01-31).\n' +
      '%H The hour on a 24-hour clock (00-23).\n%I The hour on a 12-hour clock (01-12).\n' +
      '%j The day of the current year (001-366).\n%m The month of the current year (01-12).\n' +
      '%y The last two digits of the current year (00-99).',
    { headingPath: ['string', 'Generation', 'TIMESTAMP'] },
  ),
  chunk(
    'release/3.7',
    'The string(TIMESTAMP) command learned to support the %a and %b specifiers for the abbreviated ' +
      'weekday and month names of the current date.',
    { headingPath: ['CMake 3.7 Release Notes', 'Commands'] },
  ),
  chunk(
    'release/3.6',
    'The string(TIMESTAMP) and file(TIMESTAMP) commands now support the %s format specifier, the ' +
      'number of seconds since the epoch, for the timestamp of the current time.',
    { headingPath: ['CMake 3.6 Release Notes', 'Commands'] },
  ),
  chunk(
    'release/3.12',
    'The cmake(1) Build Tool Mode (cmake --build) gained --parallel [<jobs>] and -j [<jobs>] options to ' +
      'specify a parallel build level; the -j option of make(1) gives it per call. The string(TIMESTAMP) ' +
      'and file(TIMESTAMP) commands now support the SOURCE_DATE_EPOCH environment variable in place of ' +
      'the current time for format specifiers.',
    { headingPath: ['CMake 3.12 Release Notes', 'Commands'] },
  ),
];

function indexOf(chunks: ReturnType<typeof chunk>[], symbols = true): ChunkIndex {
  const index = createChunkIndex({ tokenizer: { symbols } });
  index.add([...chunks, ...fillerChunks(20)]);
  return index;
}

const best = (index: ChunkIndex, query: string) => {
  const hit = index.search(query, { limit: 1 })[0];
  return hit && `${hit.chunk.documentId}#${hit.chunk.ordinal}`;
};

describe('symbol literals', () => {
  it('keeps a % escape as a term, case and flags included, before the word terms it holds', () => {
    expect(terms('What does %>s log?')).toEqual(['%>s', 's', 'log']);
    expect(terms('%H hour, %h month, %-d day, %.2f')).toEqual([
      '%H',
      'h',
      'hour',
      '%h',
      'h',
      'month',
      '%-d',
      'd',
      'dai',
      '%.2f',
      '2f',
    ]);
    expect(terms('%Y-%m-%d')).toEqual(['%Y', 'y', '%m', 'm', '%d', 'd']);
  });

  it('reads no escape in a percentage or in a word between percent signs', () => {
    expect(terms('50% of %APPDATA%')).toEqual(['50', 'appdata']);
  });

  it('keeps zsh prompt escapes, backslash macros and operators standing alone', () => {
    expect(terms('%~ and %#')).toEqual(['%~', '%#']);
    expect(terms('\\relative c')).toEqual(['\\relative', 'rel', 'c']);
    expect(terms('cmd1 && cmd2 >> log')).toEqual(['cmd1', '&&', 'cmd2', '>>', 'log']);
    expect(terms("data ->> 'key' @> x")).toEqual(['data', '->>', 'kei', '@>', 'x']);
  });

  it('takes no Markdown, punctuation, arrow or comparison for an operator', () => {
    expect(terms('-- **bold** a // b ?! x <= y a -> b c --> d x != y')).toEqual(
      terms('bold a b x y a b c d x y').filter((term) => !term.startsWith('%')),
    );
  });

  it('keeps the word terms alone without the symbols setting', () => {
    const plain = createTokenizer({ ...DEFAULT_SETTINGS.tokenizer, symbols: false });
    expect(plain.terms('%t && \\relative')).toEqual(['t', 'rel']);
  });

  it('finds wanted symbol terms at the offsets the full pass gives them', () => {
    const text = 'Format String: %t | Time; use %>s, not %s && \\relative or %t.';
    const all: [string, number, number][] = [];
    tokenizer.forEachTerm(text, (term, start, end) => all.push([term, start, end]));
    for (const term of ['%t', '%>s', '&&', '\\relative', 'time']) {
      const found: [string, number, number][] = [];
      tokenizer.forEachTermIn(text, new Set([term]), (t, start, end) => found.push([t, start, end]));
      expect(found).toEqual(all.filter(([t]) => t === term));
    }
  });

  it('ranks the row defining a log format escape above prose that says "log" and "-t"', () => {
    expect(best(indexOf(apacheLogFormats), 'What does %t log?')).toBe('mod_log_config#0');
    expect(best(indexOf(apacheLogFormats, false), 'What does %t log?')).not.toBe('mod_log_config#0');
  });

  it('tells escapes apart by case and by flags', () => {
    const index = indexOf(apacheLogFormats);
    expect(best(index, 'What does %T log?')).toBe('logs#0');
    expect(best(index, 'What does %>s log?')).toBe('logs#1');
  });

  it('ranks the list defining a strftime-like specifier above release notes naming others', () => {
    const query = 'What does the %j specifier of string(TIMESTAMP) stand for?';
    expect(best(indexOf(timestampSpecifiers), query)).toBe('command/string#0');
    expect(best(indexOf(timestampSpecifiers, false), query)).not.toBe('command/string#0');
  });
});
