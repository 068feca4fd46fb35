import { describe, expect, it } from 'vitest';
import { chunkDocument } from '../../../knowledge/chunker.js';
import { SourceError } from '../../../knowledge/loaders/errors.js';
import { readHtml } from '../../../knowledge/loaders/html.js';
import { readMarkdown } from '../../../knowledge/loaders/markdown.js';
import { passageBlocks } from '../../../knowledge/structure.js';
import type { LoadedDocument } from '../../../knowledge/types.js';

const htmlDocument = (text: string): LoadedDocument => ({
  title: 'manual page',
  origin: { kind: 'text' },
  format: 'html',
  pages: [{ text }],
  warnings: [],
});

const html = (body: string): string => readHtml(`<html><body><main>${body}</main></body></html>`).text;

describe('HTML tables', () => {
  it('become one paragraph per row, each cell after its column header', () => {
    const text = html(`
      <h2>Table-level lock modes</h2>
      <table>
        <thead><tr><th>Mode</th><th>Acquired by</th></tr></thead>
        <tbody>
          <tr><td>ACCESS SHARE</td><td>The <code>SELECT</code> command</td></tr>
          <tr><td>ROW SHARE</td><td>SELECT FOR UPDATE</td></tr>
        </tbody>
      </table>`);
    expect(text).toBe(
      '## Table-level lock modes\n\n' +
        'Mode: ACCESS SHARE | Acquired by: The `SELECT` command\n\n' +
        'Mode: ROW SHARE | Acquired by: SELECT FOR UPDATE',
    );
  });

  it('take a first row of header cells for the header when there is no <thead>', () => {
    const text = html(`<table>
      <tr><th>Level</th><th>Numeric value</th></tr>
      <tr><td>WARNING</td><td>30</td></tr></table>`);
    expect(text).toBe('Level: WARNING | Numeric value: 30');
  });

  it('keep the label column first in each row when there is no header row', () => {
    const text = html(`<table>
      <tr><th>pg_stat_activity</th><td>One row per server process</td></tr>
      <tr><th>pg_stat_replication</th><td>One row per WAL sender process</td></tr></table>`);
    expect(text).toBe(
      'pg_stat_activity | One row per server process\n\npg_stat_replication | One row per WAL sender process',
    );
  });
});

describe('LaTeX2HTML pages', () => {
  it('take a table title spanning every column for the caption and the row under it for the header', () => {
    const text = html(`<TABLE class="PAD BORDER">
      <TR><TD CLASS="CENTER" COLSPAN=3><SPAN>Graph Border Encoding</SPAN></TD></TR>
      <TR><TD>Bit</TD><TD>plot</TD><TD>splot</TD></TR>
      <TR><TD>1</TD><TD>bottom</TD><TD>bottom left front</TD></TR>
      <TR><TD>4096</TD><TD>polar</TD><TD>no effect</TD></TR></TABLE>`);
    expect(text).toBe(
      'Graph Border Encoding\n\n' +
        'Bit: 1 | plot: bottom | splot: bottom left front\n\n' +
        'Bit: 4096 | plot: polar | splot: no effect',
    );
  });

  it('keep the first row under a title as a row when it holds figures', () => {
    const text = html(`<table><tr><td colspan="2">Limits</td></tr>
      <tr><td>columns</td><td>2000</td></tr><tr><td>rows</td><td>none</td></tr></table>`);
    expect(text).toBe('Limits\n\ncolumns | 2000\n\nrows | none');
  });

  it('drop the bars of links to the next, parent and previous pages', () => {
    const text = html(`<DIV CLASS="navigation"><A HREF="node101.html"><IMG ALT="next" SRC="next.png"></A>
      <A HREF="node98.html"><IMG ALT="up" SRC="up.png"></A><BR>
      <B> Next:</B> <A HREF="node101.html">Boxerrorbars</A>
      <B> Up:</B> <A HREF="node98.html">Plotting styles</A>
      <B> Previous:</B> <A HREF="node99.html">Arrows</A> &nbsp; <B><A HREF="node649.html">Index</A></B></DIV>
      <H1>Bee swarm plots</H1>
      <P>See <A HREF="node318.html">set jitter</A> and <A HREF="node319.html">set key</A> for the next step.</P>`);
    expect(text).toBe('# Bee swarm plots\n\nSee set jitter and set key for the next step.');
  });

  it('drop the placeholders left for symbols the converter could not write', () => {
    const text = html(
      '<P>Turned on by <B>set palette gamma <SPAN CLASS="MATH">4#4</SPAN>gamma<SPAN CLASS="MATH">5#5</SPAN></B>. ' +
        '<SPAN CLASS="MATH">4#4</SPAN>gamma<SPAN CLASS="MATH">5#5</SPAN> defaults to 1.5.</P>',
    );
    expect(text).toBe('Turned on by **set palette gamma gamma**. gamma defaults to 1.5.');
  });
});

describe('HTML definition lists', () => {
  it('keep each term above its definition, every paragraph of which is marked', () => {
    const text = html(`<dl>
      <dt>gc.auto</dt>
      <dd><p>When there are more loose objects, git gc --auto packs them.</p>
        <div class="paragraph"><p>The default value is 6700.</p></div></dd>
      <dt>gc.autoPackLimit</dt><dd>The default value is 50.</dd></dl>`);
    expect(text).toBe(
      'gc.auto\n: When there are more loose objects, git gc --auto packs them.\n\n: The default value is 6700.\n\n' +
        'gc.autoPackLimit\n: The default value is 50.',
    );
  });

  it('mark each row of a table inside a definition as part of it, and none of its cells', () => {
    const text = html(`<dl><dt>sys.float_info</dt><dd><p>Float limits.</p>
      <table><thead><tr><th><p>attribute</p></th><th><p>explanation</p></th></tr></thead>
      <tbody><tr><td><p>dig</p></td><td><p>maximum number of decimal digits</p><p>See below.</p></td></tr>
      <tr><td><p>epsilon</p></td><td><p>difference between 1.0 and the next float</p></td></tr></tbody></table>
      <p>More.</p></dd></dl>`);
    expect(text).toBe(
      'sys.float_info\n: Float limits.\n\n: attribute: dig | explanation: maximum number of decimal digits See below.\n\n' +
        ': attribute: epsilon | explanation: difference between 1.0 and the next float\n\n: More.',
    );
  });

  it('leave a table after a definition list, or in a list inside a definition, unmarked', () => {
    const text = html(`<dl><dt>gc.auto</dt><dd><p>Packs loose objects.</p>
      <ul><li><table><tr><td>inner</td><td>cell</td></tr></table></li></ul></dd></dl>
      <table><tr><td>outer</td><td>cell</td></tr></table>`);
    expect(text).toMatch(/\n-\s+inner \| cell/);
    expect(text).toMatch(/\n\nouter \| cell$/);
  });

  it('join the several terms of one definition', () => {
    const text = html('<dl><dt>-s</dt><dt>--signoff</dt><dd><p>Add a Signed-off-by trailer.</p></dd></dl>');
    expect(text).toBe('-s, --signoff\n: Add a Signed-off-by trailer.');
  });

  it('read a Sphinx API entry without its permalink mark', () => {
    const text = html(`<dl class="py data">
      <dt class="sig sig-object py" id="datetime.MINYEAR"><span class="sig-prename">datetime.</span><span class="sig-name">MINYEAR</span><a class="headerlink" href="#datetime.MINYEAR">¶</a></dt>
      <dd><p>The smallest year number allowed. <code>MINYEAR</code> is <code>1</code>.</p></dd></dl>`);
    expect(text).toBe('datetime.MINYEAR\n: The smallest year number allowed. `MINYEAR` is `1`.');
  });

  it("name a Texinfo entry by its signature, without an empty category's colon or the permalink mark", () => {
    const blocks = passageBlocks(
      html(`<dl class="def">
        <dt id="index-history_005fsize"><span class="category">: </span><span><em><var>val</var> =</em> <strong>history_size</strong> <em>()</em><a href="#index-history_005fsize" class="copiable-anchor"> &para;</a></span></dt>
        <dd><p>Query or set the internal variable that specifies how many entries to store in the history file.</p>
        <p>The default value is <code>1000</code>.</p></dd></dl>`),
    );
    expect(blocks).toEqual([
      {
        kind: 'definition',
        term: 'val = history_size ()',
        text: 'Query or set the internal variable that specifies how many entries to store in the history file.',
      },
      { kind: 'definition', term: 'val = history_size ()', text: 'The default value is `1000`.' },
    ]);
  });

  it('keep a list that a definition announces under its term', () => {
    // postconf(5): a parameter's entry whose paragraph announces a list of effects, then the next entry.
    const blocks = passageBlocks(
      html(`<dl><dt><b>enable_long_queue_ids</b> (default: no)</dt>
        <dd><p>Enable long, non-repeating, queue IDs.</p>
        <p>Changing the parameter value to "yes" has the following effects:</p>
        <ul><li><p>Existing queue file names are not affected.</p></li>
        <li><p>For safety reasons the vowels (AEIOUaeiou) are excluded from the alphabet.</p></li></ul></dd>
        </dl><p>A paragraph after the list.</p><ul><li>An item of another list.</li></ul>`),
    );
    const term = 'enable_long_queue_ids (default: no)';
    expect(blocks).toEqual([
      { kind: 'definition', term, text: 'Enable long, non-repeating, queue IDs.' },
      { kind: 'definition', term, text: 'Changing the parameter value to "yes" has the following effects:' },
      { kind: 'text', term, text: '-   Existing queue file names are not affected.' },
      {
        kind: 'text',
        term,
        text: '-   For safety reasons the vowels (AEIOUaeiou) are excluded from the alphabet.',
      },
      { kind: 'text', text: 'A paragraph after the list.' },
      { kind: 'text', text: '-   An item of another list.' },
    ]);
  });

  it('give a nested entry its own term', () => {
    const blocks = passageBlocks(
      html(`<dl><dt>class Pool</dt><dd><p>A pool of workers.</p>
        <dl><dt>close()</dt><dd><p>Stops the pool.</p></dd></dl></dd></dl>`),
    );
    expect(blocks).toEqual([
      { kind: 'definition', term: 'class Pool', text: 'A pool of workers.' },
      { kind: 'definition', term: 'close()', text: 'Stops the pool.' },
    ]);
  });

  it('turn preformatted text without <code> into a code block', () => {
    expect(html('<pre>$ git bisect start\n$ git bisect bad</pre>')).toBe(
      '```\n$ git bisect start\n$ git bisect bad\n```',
    );
  });

  it('keep every line of a DocBook screen that mixes prompt, input and output', () => {
    const text = html(
      '<pre class="screen"><code class="computeroutput"># </code><strong class="userinput"><code>dpkg -r debian-cd</code></strong>\n' +
        '<code class="computeroutput">Removing debian-cd (3.1.35) ...\n# </code><strong class="userinput"><code>dpkg -P debian-cd</code></strong>\n' +
        '<code class="computeroutput">Purging configuration files for debian-cd (3.1.35) ...\n</code></pre>',
    );
    expect(text).toBe(
      '```\n# dpkg -r debian-cd\nRemoving debian-cd (3.1.35) ...\n# dpkg -P debian-cd\nPurging configuration files for debian-cd (3.1.35) ...\n```',
    );
  });

  it('read a one-line synopsis of code marks as a line of text', () => {
    expect(
      html(
        '<pre class="synopsis"><code class="function">gen_random_uuid</code> () → <code class="returnvalue">uuid</code></pre>',
      ),
    ).toBe('`gen_random_uuid` () → `uuid`');
  });

  it('keep the language of a block that is one <code>', () => {
    expect(html('<pre><code class="language-c">int x;\n</code></pre>')).toBe('```c\nint x;\n```');
  });
});

describe('Markdown tables', () => {
  it('become one paragraph per row, each cell after its column header', () => {
    const { text } = readMarkdown(
      '# Locks\n\n| Mode | Acquired by |\n|------|:-----------:|\n| ACCESS SHARE | `SELECT` |\n| ROW SHARE | a \\| b |\nAfter the table.\n',
      { mdx: false },
    );
    expect(text).toBe(
      '# Locks\n\nMode: ACCESS SHARE | Acquired by: `SELECT`\n\nMode: ROW SHARE | Acquired by: a | b\n\nAfter the table.',
    );
  });

  it('are left alone inside code fences', () => {
    const source = '```\n| a | b |\n|---|---|\n| 1 | 2 |\n```';
    expect(readMarkdown(source, { mdx: false }).text).toBe(source);
  });
});

describe('passage structure', () => {
  it('reads rows, Pandoc definitions, code and headings for what they are', () => {
    expect(
      passageBlocks(
        '## Levels\n\nLevel: WARNING | Numeric value: 30\n\nTerm\n\n: Its meaning.\n\n```\ncode\n```',
      ),
    ).toEqual([
      { kind: 'heading', text: 'Levels' },
      { kind: 'row', text: 'Level: WARNING | Numeric value: 30' },
      { kind: 'definition', term: 'Term', text: 'Its meaning.' },
      { kind: 'code', text: '```\ncode\n```' },
    ]);
  });

  it('reads the lines of a passage cut from inside a listing as code, up to the fence closing it', () => {
    const passage =
      '     string="<%PRI%>%TIMESTAMP% %HOSTNAME% %msg%")\n```\n\n' +
      '**RSYSLOG_SyslogProtocol23Format** - the format specified in the internet-draft.\n\n' +
      '```\ntemplate(name="RSYSLOG_SyslogProtocol23Format" type="string")\n```\n\nThe next paragraph.';
    expect(passageBlocks(passage)).toEqual([
      { kind: 'code', text: 'string="<%PRI%>%TIMESTAMP% %HOSTNAME% %msg%")\n```' },
      {
        kind: 'text',
        text: '**RSYSLOG_SyslogProtocol23Format** - the format specified in the internet-draft.',
      },
      { kind: 'code', text: '```\ntemplate(name="RSYSLOG_SyslogProtocol23Format" type="string")\n```' },
      { kind: 'text', text: 'The next paragraph.' },
    ]);
    // A passage opening with a block, or ending inside one, is read as before.
    expect(passageBlocks('Text.\n\n```\ncode').map((block) => block.kind)).toEqual(['text', 'code']);
    expect(passageBlocks('```\ncode\n```\n\nText.').map((block) => block.kind)).toEqual(['code', 'text']);
  });

  it('reads each item of a list as a block of its own, with the lines that continue it and the name it opens with', () => {
    expect(
      passageBlocks(
        'Options:\n-   `depth` <number> Levels to show.\n    Continued here.\n    -   `colors` <boolean> Styled. **Default:** `false`.\n1. First step.',
      ),
    ).toEqual([
      { kind: 'text', text: 'Options:' },
      { kind: 'text', name: 'depth', text: '-   `depth` <number> Levels to show.\n    Continued here.' },
      { kind: 'text', name: 'colors', text: '    -   `colors` <boolean> Styled. **Default:** `false`.' },
      { kind: 'text', text: '1. First step.' },
    ]);
  });

  it('reads a table row inside a definition as a row under its term', () => {
    expect(
      passageBlocks('sys.float_info\n: Float limits.\n\n: attribute: dig | explanation: decimal digits'),
    ).toEqual([
      { kind: 'definition', term: 'sys.float_info', text: 'Float limits.' },
      { kind: 'row', term: 'sys.float_info', text: 'attribute: dig | explanation: decimal digits' },
    ]);
  });

  it('keeps a definition going past a list inside it', () => {
    const blocks = passageBlocks(
      'gc.auto\n: Packs loose objects.\n\n- a list item\n\n: The default value is 6700.',
    );
    expect(blocks.at(-1)).toEqual({
      kind: 'definition',
      term: 'gc.auto',
      text: 'The default value is 6700.',
    });
  });
});

describe('headings on chunks', () => {
  it('gives every chunk of an HTML page the path of headings above it', () => {
    const text = html(
      '<h1>logging</h1><h2>Logging Levels</h2><table><tr><th>Level</th><th>Numeric value</th></tr><tr><td>ERROR</td><td>40</td></tr></table>',
    );
    expect(chunkDocument(htmlDocument(text), 'd').map((chunk) => [chunk.headingPath, chunk.text])).toEqual([
      [['logging', 'Logging Levels'], '# logging\n\n## Logging Levels\n\nLevel: ERROR | Numeric value: 40'],
    ]);
  });
});

describe('chunks inside definitions', () => {
  it('sit under the term they continue, as under a heading, and no longer once it ends', () => {
    const text =
      '## Configuration\n\ngc.auto\n: ' +
      'When there are approximately more than this many loose objects, git gc --auto packs them. '.repeat(8) +
      '\n\n: The default value is 6700.\n\nAfter the list.';
    const chunks = chunkDocument(htmlDocument(text), 'd', { maxChars: 400, overlapChars: 0 });
    expect(chunks.map((chunk) => [chunk.headingPath, chunk.text.slice(0, 15)])).toEqual([
      [['Configuration'], '## Configuratio'],
      [['Configuration', 'gc.auto'], 'When there are '],
      [['Configuration'], 'After the list.'],
    ]);
  });

  it('sit under the term whose table they start in, past the rows before them', () => {
    const rows = Array.from(
      { length: 12 },
      (_, i) =>
        `<tr><td>field${i}</td><td>${'what the field holds about the float type '.repeat(2)}</td></tr>`,
    );
    const text = html(`<h2>sys</h2><dl><dt>sys.float_info</dt>
      <dd><p>A named tuple holding information about the float type.</p>
      <table><thead><tr><th>attribute</th><th>explanation</th></tr></thead><tbody>${rows.join('')}</tbody></table></dd></dl>`);
    const chunks = chunkDocument(htmlDocument(text), 'd', { maxChars: 400, overlapChars: 0 });
    expect(chunks.length).toBeGreaterThan(2);
    for (const chunk of chunks.slice(1)) {
      expect(chunk.text).toMatch(/^: attribute: field\d+ \|/);
      expect(chunk.headingPath).toEqual(['sys', 'sys.float_info']);
    }
  });
});

describe('HTML reference pages (DocBook)', () => {
  it('keep the spellings of a term written on several lines apart', () => {
    const text = html(`
      <dl class="variablelist">
        <dt><span class="term"><code>-j <em>njobs</em></code><br><code>--jobs=<em>njobs</em></code></span></dt>
        <dd><p>Run the dump in parallel by dumping <em>njobs</em> tables simultaneously.</p></dd>
      </dl>`);
    expect(text).toContain('-j njobs, --jobs=njobs\n: Run the dump in parallel');
  });

  it('drop the navigation bars, the contents list and an index made of links', () => {
    const text = readHtml(`<html><body>
      <div class="navheader"><table><tr><th>8.1. Numeric Types</th></tr>
        <tr><td><a href="prev.html">Prev</a></td><td><a href="up.html">Up</a></td></tr></table></div>
      <h2>8.1. Numeric Types</h2>
      <div class="toc"><dl class="toc"><dt><a href="#int">8.1.1. Integer Types</a></dt>
        <dt><a href="#serial">8.1.4. Serial Types</a></dt></dl></div>
      <p>Numeric types consist of two-, four-, and eight-byte integers.</p>
      <h3>Index</h3>
      <dl><dt>serial, <a href="numeric.html">Serial Types</a></dt><dt>serial2, <a href="numeric.html">Serial Types</a></dt>
        <dt>serial4, <a href="numeric.html">Serial Types</a></dt></dl>
      <div class="navfooter"><a href="next.html">Next</a></div>
    </body></html>`).text;
    expect(text).toBe(
      '## 8.1. Numeric Types\n\nNumeric types consist of two-, four-, and eight-byte integers.\n\n### Index',
    );
  });

  it("drop Publican's bar of Prev and Next links around the book's title", () => {
    const text = html(`
      <ul class="docnav top"><li class="previous"><a accesskey="p" href="sect.inetd.html"><strong>Prev</strong></a></li>
        <li class="home">The Debian Administrator's Handbook</li>
        <li class="next"><a accesskey="n" href="sect.anacron.html"><strong>Next</strong></a></li></ul>
      <h2>9.7. Scheduling Tasks with cron and atd</h2>
      <div class="para">cron is the daemon responsible for executing scheduled commands.</div>`);
    expect(text).toBe(
      '## 9.7. Scheduling Tasks with cron and atd\n\ncron is the daemon responsible for executing scheduled commands.',
    );
  });

  it('keep a list item that names the Next and Prev instructions in a sentence', () => {
    const text = html(`<ul>
      <li>The <a href="#Next">Next</a> instruction will work after this opcode, but not the <a href="#Prev">Prev</a> instruction.</li>
      <li>See also the other opcodes.</li></ul>`);
    expect(text).toContain('but not the Prev instruction.');
  });

  it('keep a definition list whose terms link elsewhere but whose definitions say something', () => {
    const text = html(`<dl>
      <dt><a href="a.html">alpha</a></dt><dd><p>The first letter.</p></dd>
      <dt><a href="b.html">beta</a></dt><dd><p>The second letter.</p></dd>
      <dt><a href="c.html">gamma</a></dt><dd><p>The third letter.</p></dd></dl>`);
    expect(text).toContain('beta\n: The second letter.');
  });
});

describe('HTML reference pages (Apache httpd)', () => {
  it('read a table inside a table cell as part of the cell', () => {
    const text = html(`<table><tr><th>Format String</th><th>Description</th></tr>
      <tr><td><code>%{format}t</code></td><td>The time, in the form given by format. Tokens:
        <table><tr><td><code>sec</code></td><td>number of seconds since the Epoch</td></tr>
          <tr><td><code>msec</code></td><td>number of milliseconds since the Epoch</td></tr></table></td></tr>
      <tr><td><code>%&gt;s</code></td><td>Final status</td></tr></table>`);
    expect(text).toContain('msec` | number of milliseconds since the Epoch');
    expect(text).toContain('Format String: `%>s` | Description: Final status');
  });

  it("keep a directive's table whose row labels link to the glossary", () => {
    const row = (label: string, value: string) =>
      `<tr><th><a href="directive-dict.html#${label}">${label}:</a></th><td>${value}</td></tr>`;
    const modules = ['event', 'worker', 'prefork', 'mpm_winnt', 'mpm_netware', 'mpmt_os2']
      .map((name) => `<code class="module"><a href="../mod/${name}.html">${name}</a></code>`)
      .join(', ');
    const text =
      html(`<h2 id="listenbacklog">ListenBackLog Directive <a class="permalink" href="#listenbacklog">&para;</a></h2>
      <table class="directive">${row('Description', 'Maximum length of the queue of pending connections')}
        ${row('Syntax', '<code>ListenBackLog <var>backlog</var></code>')}${row('Default', '<code>ListenBackLog 511</code>')}
        ${row('Context', 'server config')}${row('Status', 'MPM')}${row('Module', modules)}</table>`);
    expect(text).toContain('Default: | `ListenBackLog 511`');
  });

  it("drop the site's menu and breadcrumb trail, not links separated by bars inside a sentence", () => {
    const text = html(`<div id="page-header">
        <p class="menu"><a href="mod/">Modules</a> | <a href="mod/directives.html">Directives</a> | <a href="faq/">FAQ</a> | <a href="glossary.html">Glossary</a></p>
        <p class="apache">HTTP Server Version 2.4</p></div>
      <div id="path"><a href="https://www.apache.org/">Apache</a> &gt; <a href="https://httpd.apache.org/">HTTP Server</a> &gt; <a href="./">Version 2.4</a></div>
      <div id="page-content"><h1>Log Files</h1>
        <p>Move with <a href="#fd">forward()</a> | <a href="#f">fd()</a> | <a href="#go">go()</a>, turn with <a href="#rt">right()</a>.</p></div>`);
    expect(text).toBe(
      'HTTP Server Version 2.4\n\n# Log Files\n\nMove with forward() | fd() | go(), turn with right().',
    );
  });

  it("drop the link back to the page's top that ends each section", () => {
    const text = html(`<h2 id="graceful">Graceful Restart</h2>
      <p>The <code>USR1</code> signal causes the parent process to advise the children to exit.</p>
      <div class="top"><a href="#page-header"><img alt="top" src="../images/up.gif"></a></div>
      <h2 id="hard">Restart Now</h2>
      <p>Back to <a href="#top">top</a> speed the server restarts.</p>`);
    expect(text).toBe(
      '## Graceful Restart\n\nThe `USR1` signal causes the parent process to advise the children to exit.\n\n' +
        '## Restart Now\n\nBack to top speed the server restarts.',
    );
  });

  it('drop the permalink mark after a heading, whatever its class', () => {
    const text =
      html(`<h2 id="timeout">TimeOut Directive <a class="permalink" href="#timeout" title="Permanent link">&para;</a></h2>
      <p>The <a href="#timeout">TimeOut</a> directive sets the time to wait.</p>`);
    expect(text).toBe('## TimeOut Directive\n\nThe TimeOut directive sets the time to wait.');
  });
});

describe('HTML manuals split by chapter (Texinfo)', () => {
  const bar = (up: string) => `<table class="header" cellpadding="1" cellspacing="1" border="0">
    <tr><td>[<a href="#Parameters" title="Beginning of this chapter"> &lt;&lt; </a>]</td>
    <td>[<a href="#Description" title="Previous section in reading order"> &lt; </a>]</td>
    ${up}<td>[<a href="#Array-Subscripts" title="Next section"> &gt; </a>]</td>
    <td>[<a href="Options.html#Options" title="Next chapter"> &gt;&gt; </a>]</td><td> &nbsp; </td>
    <td>[<a href="index.html" title="Cover (top) of document">Top</a>]</td>
    <td>[<a href="zsh_toc.html#SEC_Contents" title="Table of contents">Contents</a>]</td>
    <td>[<a href="Concept-Index.html" title="Index">Index</a>]</td>
    <td>[<a href="zsh_abt.html#SEC_About" title="About (help)"> ? </a>]</td></tr></table>`;

  it('drop the bar of arrows above each section, with or without its Up button', () => {
    const text = html(`<div class="section" id="Array-Parameters">
      ${bar('<td>[<a href="#Parameters" title="Up section"> Up </a>]</td>')}
      <h2 class="section">15.2 Array Parameters</h2><p>To assign an array value, write one of:</p></div>
      ${bar('')}`);
    expect(text).toBe('## 15.2 Array Parameters\n\nTo assign an array value, write one of:');
  });

  it("drop a chapter's menu and an index written as tables of links", () => {
    const text = html(`<p>See the sections below.</p>
      <table class="menu" border="0" cellspacing="0">
        <tr><td><a href="#Array-Parameters">15.2 Array Parameters</a></td><td>&nbsp;&nbsp;</td></tr>
        <tr><td><a href="#Positional-Parameters">15.3 Positional Parameters</a></td><td>&nbsp;&nbsp;</td></tr>
        <tr><td><a href="#Local-Parameters">15.4 Local Parameters</a></td><td>&nbsp;&nbsp;</td></tr></table>
      <table class="index-entries">
        <tr><td></td><td><a href="Parameters.html#index-HISTSIZE"><code>HISTSIZE</code></a>:</td><td>&nbsp;</td>
          <td><a href="Parameters.html#Parameters-Used-By-The-Shell">15.6 Parameters Used By The Shell</a></td></tr>
        <tr><td></td><td><a href="Parameters.html#index-HOME"><code>HOME</code></a>:</td><td>&nbsp;</td>
          <td><a href="Parameters.html#Parameters-Used-By-The-Shell">15.6 Parameters Used By The Shell</a></td></tr>
        <tr><td></td><td><a href="Parameters.html#index-IFS"><code>IFS</code></a>:</td><td>&nbsp;</td>
          <td><a href="Parameters.html#Parameters-Used-By-The-Shell">15.6 Parameters Used By The Shell</a></td></tr></table>`);
    expect(text).toBe('See the sections below.');
  });

  it('keep a table whose rows link their names but describe them', () => {
    const text = html(`<table><tr><th>View</th><th>Description</th></tr>
      <tr><td><a href="a.html">pg_stat_activity</a></td><td>One row per server process, showing information related to its current activity.</td></tr>
      <tr><td><a href="b.html">pg_stat_replication</a></td><td>One row per WAL sender process, showing statistics about replication.</td></tr>
      <tr><td><a href="c.html">pg_stat_wal_receiver</a></td><td>Only one row, showing statistics about the WAL receiver.</td></tr></table>`);
    expect(text).toContain('View: pg_stat_replication | Description: One row per WAL sender process');
  });

  it('read an example that texi2html indents with a table of one row as code, not as a row', () => {
    const text = html(`<dl compact="compact"><dt> Three forms, special cases for one and two</dt>
      <dd><p>The header entry would be:
      </p><table><tr><td>&nbsp;</td><td><pre class="smallexample">Plural-Forms: nplurals=3; plural=n==1 ? 0 : n==2 ? 1 : 2;
</pre></td></tr></table></dd></dl>`);
    expect(text).toBe(
      'Three forms, special cases for one and two\n: The header entry would be:\n\n```\nPlural-Forms: nplurals=3; plural=n==1 ? 0 : n==2 ? 1 : 2;\n```',
    );
  });

  it("give an @itemx term the definition of the @item above it across texi2html's empty definition", () => {
    const text = html(`<dl compact="compact">
      <dt> <code>c-format</code></dt>
      <dd><a name="IDX49"></a>
      </dd>
      <dt> <code>no-c-format</code></dt>
      <dd><a name="IDX50"></a>
      <p>These flags should not be added by a human.</p></dd></dl>`);
    expect(text).toBe('c-format, no-c-format\n: These flags should not be added by a human.');
  });

  it('read the option lines of a manual page groff wrote as HTML as the terms of the paragraphs indented under them', () => {
    const text =
      html(`<p style="margin-left:11%; margin-top: 1em">Substitutes the values of environment variables.</p>
      <p style="margin-left:11%; margin-top: 1em"><b>Operation mode: <br>
      -v</b>, <b>--variables</b></p>
      <p style="margin-left:22%;">output the variables occurring in SHELL-FORMAT</p>
      <p style="margin-left:11%; margin-top: 1em">In normal operation mode, standard input is copied to standard output.</p>`);
    expect(text).toBe(
      'Substitutes the values of environment variables.\n\n**Operation mode:**\n\n-v, --variables\n: output the variables occurring in SHELL-FORMAT\n\n' +
        'In normal operation mode, standard input is copied to standard output.',
    );
  });

  it("number an enumeration without the empty item texi2html makes of an index entry's anchor", () => {
    const text =
      html(`<p>It does this according to the following environment variables, in priority order:</p>
      <ol>
      <li><a name="IDX33"></a>
      </li><li> <code>LANGUAGE</code>
      <a name="IDX34"></a>
      </li><li> <code>LC_ALL</code>
      </li></ol>`);
    expect(text).toBe(
      'It does this according to the following environment variables, in priority order:\n\n1.  `LANGUAGE`\n2.  `LC_ALL`',
    );
  });

  it('keep a list without bullets that texi2html marks as a table of contents, and drop a real one', () => {
    const text = html(`<ul class="toc">
      <li><a href="#SEC1">1. Introduction</a></li>
      <li><a href="#SEC2">2. The User's View</a></li>
      <li><a href="#SEC3">3. The Format of PO Files</a></li></ul>
      <p>The default keyword specifications are language dependent. They are:</p>
      <ul class="toc">
      <li>For Shell: <code>gettext</code>, <code>ngettext:1,2</code>, <code>eval_gettext</code>.</li>
      <li>For Desktop: <code>Name</code>, <code>GenericName</code>, <code>Comment</code>, <code>Keywords</code>.</li></ul>`);
    expect(text).toBe(
      'The default keyword specifications are language dependent. They are:\n\n' +
        '-   For Shell: `gettext`, `ngettext:1,2`, `eval_gettext`.\n-   For Desktop: `Name`, `GenericName`, `Comment`, `Keywords`.',
    );
  });

  it('refuse a page that only redirects to a section of another, naming where it points', () => {
    expect(() =>
      readHtml(`<html><head><title>Parameters Used By The Shell (zsh)</title>
        <meta http-equiv="Refresh" content="0; url=Parameters.html#Parameters-Used-By-The-Shell"></head>
        <body><p>The node you are looking for is at <a href="Parameters.html#Parameters-Used-By-The-Shell">Parameters Used By The Shell</a>.</p></body></html>`),
    ).toThrow(
      new SourceError('only a redirect to Parameters.html#Parameters-Used-By-The-Shell: no text of its own'),
    );
  });

  it('read a page that refreshes to another but has a text of its own', () => {
    const long = 'This page keeps its own documentation while it refreshes. '.repeat(8);
    const read = readHtml(`<html><head><meta http-equiv="refresh" content="60; url=next.html"></head>
      <body><p>${long}</p></body></html>`);
    expect(read.text).toBe(long.trim());
  });
});

describe('HTML keys (DocBook keycap, kbd)', () => {
  it('write the keys of a combination as their names, without emphasis marks', () => {
    const text =
      html(`<p>Select the <span class="guimenu">Edit</span> → <span class="guimenuitem">Configuration Profiles…</span>
      menu item or press <span class="keycap"><strong>Shift</strong></span>+<span class="keycap"><strong>Ctrl</strong></span>+<span class="keycap"><strong>A</strong></span>
      or <kbd>Ctrl</kbd>+<kbd>Q</kbd> to quit, and read the <strong>warning</strong> first.</p>`);
    expect(text).toContain('press Shift+Ctrl+A or Ctrl+Q to quit');
    expect(text).toContain('read the **warning** first');
  });
});

describe('HTML superscripts', () => {
  it('write an exponent with a caret, so 2<sup>32</sup> does not read 232', () => {
    const text = html(
      `<p>XIDs are compared using modulo-2<sup>32</sup> arithmetic; p is 10<sup>-12</sup>.</p>`,
    );
    expect(text).toContain('modulo-2^32 arithmetic; p is 10^-12.');
  });

  it('leave a footnote mark that links to its note as it is', () => {
    const text = html(`<p>See the notes<sup><a href="#fn1">1</a></sup> below.</p>`);
    expect(text).toContain('See the notes1 below.');
  });
});

describe('HTML manuals written as plain text (HAProxy)', () => {
  it("read a <pre>'s wrapped paragraphs as text and keep its examples as code", () => {
    const text = html(`<pre class="text">6.1. Limitation
----------------

The cache won't store and won't deliver objects in these cases. The oldest
objects are deleted first when we try to allocate a new one.

To select a different backend for requests to static contents on the "www" site
and to every request on the "img", "video", "download" and "ftp" hosts :

   acl url_static  path_beg         /static /images /img /css
   use_backend static if url_static
</pre>`);
    expect(text).toBe(
      '## 6.1. Limitation\n\n' +
        "The cache won't store and won't deliver objects in these cases. The oldest\n" +
        'objects are deleted first when we try to allocate a new one.\n\n' +
        'To select a different backend for requests to static contents on the "www" site\n' +
        'and to every request on the "img", "video", "download" and "ftp" hosts :\n\n' +
        '```\n   acl url_static  path_beg         /static /images /img /css\n   use_backend static if url_static\n```',
    );
  });

  it("read the items of a <pre>'s list of facts as text, though they end with a semicolon", () => {
    const text = html(`<pre class="text">On a Core i7 running at 3.7 GHz, the following results were measured:

  - 83000 TCP connections per second from client to server;

  - 243000 HTTP requests per second in end-to-end keep-alive mode;

  - 1300 HTTPS connections per second using TLS connections renegotiated with
    RSA2048;
</pre>`);
    // The item ending in a figure ("RSA2048;") reads as no sentence, and stays code.
    expect(text).toBe(
      'On a Core i7 running at 3.7 GHz, the following results were measured:\n\n' +
        '- 83000 TCP connections per second from client to server;\n\n' +
        '- 243000 HTTP requests per second in end-to-end keep-alive mode;\n\n' +
        '```\n  - 1300 HTTPS connections per second using TLS connections renegotiated with\n    RSA2048;\n```',
    );
  });

  it('keep a <pre> of commands, configuration or a table as code', () => {
    expect(html('<pre>backend bck1\n  mode http\n  server srv1 127.0.0.1:80</pre>')).toBe(
      '```\nbackend bck1\n  mode http\n  server srv1 127.0.0.1:80\n```',
    );
    // A two-column table whose lines read as sentences (gnuplot's `endian` options).
    const table =
      '     little:  least significant to greatest significance\n' +
      '        big:  greatest significance to least significance\n' +
      "swap (swab):  Interchange the significance.  (If things don't look right, try this.)";
    expect(html(`<pre>${table}</pre>`)).toBe(`\`\`\`\n${table}\n\`\`\``);
    // A man page's body, indented under its section name (Postfix's pages, one <pre> each).
    const manPage =
      '<b>SECURITY</b>\n       The SMTP server is moderately security-sensitive.\n\n' +
      '       It talks to SMTP clients and to DNS servers on the network. The SMTP\n' +
      '       server can be run chrooted at fixed low privilege.';
    expect(html(`<pre>${manPage}</pre>`)).toBe(`\`\`\`\n${manPage.replace(/<\/?b>/g, '')}\n\`\`\``);
    // An example whose comments are sentences (gnuplot's binary examples).
    const example =
      '     # Selects two float values (second one implicit) with a float value\n' +
      '     # discarded between them for an indefinite length of 1D data.\n' +
      '     plot \'data\' binary format="%float%*float" using 1:2 with lines';
    expect(html(`<pre>${example}</pre>`)).toBe(`\`\`\`\n${example}\n\`\`\``);
  });

  it('make a keyword line in bold the term of the <pre> describing it, the example under it in the entry', () => {
    const text =
      html(`<a class="anchor" name="cache"></a><div class="keyword"><b><a href="#cache">cache</a></b> <span>&lt;name&gt;</span></div><pre class="text">Declare a cache section, allocate a shared cache memory named &lt;name&gt;, the
size of cache is mandatory.
</pre><a class="anchor" name="total-max-size"></a><div class="keyword"><b><a href="#total-max-size">total-max-size</a></b> <span>&lt;megabytes&gt;</span></div><pre class="text">Define the size in RAM of the cache in megabytes. This size is split in
blocks of 1kB which are used by the cache entries. Its maximum value is 4095.

Example:
    total-max-size 4
</pre>`);
    expect(text).toBe(
      'cache <name>\n: Declare a cache section, allocate a shared cache memory named <name>, the\n' +
        'size of cache is mandatory.\n\n' +
        'total-max-size <megabytes>\n: Define the size in RAM of the cache in megabytes. This size is split in\n' +
        'blocks of 1kB which are used by the cache entries. Its maximum value is 4095.\n\n' +
        '```\nExample:\n    total-max-size 4\n```',
    );
    const blocks = passageBlocks(text);
    expect(blocks.filter((block) => block.kind === 'definition').map((block) => block.term)).toEqual([
      'cache <name>',
      'total-max-size <megabytes>',
    ]);
  });
});

describe("HTML manuals written as plain text indented with tabs (Vim's help)", () => {
  // One <pre> per help file: tags set far right with tabs above an entry, its term at the margin,
  // its scope under it, the description indented by a tab, or beside the term after a gap.
  const tag = (name: string): string => `*<A NAME="${name}"></A><B>${name}</B>*`;
  const page = `<PRE>
\t\t\t\t\t\t${tag("'undoreload'")} ${tag("'ur'")}
<A HREF="#'undoreload'">'undoreload'</A> 'ur'\tnumber\t(default 10000)
\t\t\tglobal
\tSave the whole buffer for undo when reloading it.  This applies to the
\t":e!" command and reloading for when the buffer changed outside of
\tVim.  The save only happens when the number of lines is smaller than
\tthe value of this option.

\tNote that this causes the whole buffer to be stored in memory.  Set
\tthis option to a lower value if you run out of memory.

\t\t\t\t\t\t\t${tag('--clean')}
--clean\t\tSimilar to "-u DEFAULTS -U NONE -i NONE": the initializations
\t\tfrom files and environment variables are skipped.

\t\t\t\t\t\t\t${tag('E326')}
\t   If the ".swp" file name already exists, the last character is
\t   decremented until there is no file with that name or ".saa" is
\t   reached.  In the last case, no swap file is created.

EURO

\t\t\t\t\t\t\t${tag('euro')}
Exception: RFC1345 doesn't specify the euro sign.  In Vim the digraph =e was
added for this.
</PRE>`;

  it('read an entry as its term and the description indented under or beside it', () => {
    const text = html(page);
    expect(text).toBe(
      "'undoreload' 'ur' number (default 10000), global\n" +
        ': Save the whole buffer for undo when reloading it.  This applies to the\n' +
        '":e!" command and reloading for when the buffer changed outside of\n' +
        'Vim.  The save only happens when the number of lines is smaller than\n' +
        'the value of this option.\n\n' +
        ': Note that this causes the whole buffer to be stored in memory.  Set\n' +
        'this option to a lower value if you run out of memory.\n\n' +
        '--clean\n: Similar to "-u DEFAULTS -U NONE -i NONE": the initializations\n' +
        'from files and environment variables are skipped.\n\n' +
        '*E326*\n: If the ".swp" file name already exists, the last character is\n' +
        'decremented until there is no file with that name or ".saa" is\n' +
        'reached.  In the last case, no swap file is created.\n\n' +
        '### EURO\n\n' +
        "*euro*\n: Exception: RFC1345 doesn't specify the euro sign.  In Vim the digraph =e was\n" +
        'added for this.',
    );
    const definitions = passageBlocks(text).filter((block) => block.kind === 'definition');
    expect(definitions.map((block) => block.term)).toEqual([
      "'undoreload' 'ur' number (default 10000), global",
      "'undoreload' 'ur' number (default 10000), global",
      '--clean',
      '*E326*',
      '*euro*',
    ]);
  });

  it('keep a listing indented with spaces, or a block announced by a colon, as code', () => {
    const listing = 'class Foo:\n    def __getitem__(self, index):\n        return index';
    expect(html(`<pre>${listing}</pre>`)).toBe(`\`\`\`\n${listing}\n\`\`\``);
    const docstring = 'def pen_up():\n\tPull the pen up so that nothing is drawn when moving.';
    expect(html(`<pre>${docstring}</pre>`)).toBe(`\`\`\`\n${docstring}\n\`\`\``);
    const synopsis = 'CHECKPOINT\n\n    CHECKPOINT forces an immediate checkpoint when it is run.';
    expect(html(`<pre>${synopsis}</pre>`)).toBe(`\`\`\`\n${synopsis}\n\`\`\``);
  });
});

describe('HTML sections documenting one parameter each (Sphinx module pages)', () => {
  const parameter = (id: string, name: string, type: string, value: string, description: string): string =>
    `<section id="${id}"><span id="id2"></span><h3>${name}<a class="headerlink" href="#${id}">¶</a></h3>
      <table class="parameter-table docutils align-default">
        <thead><tr><th class="head"><p>type</p></th><th class="head"><p>default</p></th><th class="head"><p>mandatory</p></th></tr></thead>
        <tbody><tr><td><p>${type}</p></td><td><p>${value}</p></td><td><p>no</p></td></tr></tbody>
      </table>
      <div class="versionadded"><p><span class="versionmodified added">New in version 8.38.0.</span></p></div>
      <p>${description}</p></section>`;

  it('make the heading the term of its attribute row and of the description under it', () => {
    const text = html(`<section id="action-parameters"><h2>Action Parameters</h2>
      ${parameter('confirmtimeout', 'confirmTimeout', 'integer', '10000', 'Specifies how long rsyslog must wait for the program to confirm each message.')}
      ${parameter('fsync', 'FSync', 'binary', 'off', 'Turn this option on to force state file writes to persistent physical storage.')}
      </section>`);
    expect(text).toContain(
      '### confirmTimeout\n\nconfirmTimeout\n: type: integer | default: 10000 | mandatory: no\n\n' +
        ': New in version 8.38.0.\n\n: Specifies how long rsyslog must wait for the program to confirm each message.',
    );
    const blocks = passageBlocks(text);
    expect(blocks.filter((block) => block.kind === 'row').map((block) => block.term)).toEqual([
      'confirmTimeout',
      'FSync',
    ]);
    const described = blocks.filter((block) => block.text.startsWith('Turn this option on'));
    expect(described).toEqual([
      {
        kind: 'definition',
        term: 'FSync',
        text: 'Turn this option on to force state file writes to persistent physical storage.',
      },
    ]);
  });

  it('leave a section alone whose heading is a title of words, or whose table has several rows', () => {
    const text = html(`<section id="t"><h3>Rate limits</h3>
      <table><thead><tr><th>type</th><th>default</th></tr></thead><tbody><tr><td>integer</td><td>600</td></tr></tbody></table>
      <p>How the limits apply.</p></section>
      <section id="levels"><h3>Levels</h3>
      <table><thead><tr><th>level</th><th>value</th></tr></thead><tbody><tr><td>err</td><td>3</td></tr><tr><td>warning</td><td>4</td></tr></tbody></table>
      <p>The levels in order.</p></section>`);
    expect(text).toBe(
      '### Rate limits\n\ntype: integer | default: 600\n\nHow the limits apply.\n\n' +
        '### Levels\n\nlevel: err | value: 3\n\nlevel: warning | value: 4\n\nThe levels in order.',
    );
  });
});

describe('HTML examples and their results written as two code lines (Sphinx function pages)', () => {
  const block = (code: string): string =>
    `<div class="highlight-none notranslate"><div class="highlight"><pre><span></span>${code}\n</pre></div></div>`;

  it('read a code line, a linking word and a code line as one statement', () => {
    const text =
      html(`<p>This example shows the result on a 64-bit system when a negative integer is given.</p>
      ${block('int2hex(-13)')}<p>produces</p>${block('fffffffffffffff3')}`);
    expect(text).toBe(
      'This example shows the result on a 64-bit system when a negative integer is given.\n\n' +
        '`int2hex(-13)` produces `fffffffffffffff3`',
    );
  });

  it('keep a listing of several lines, and a sentence between two code lines, apart', () => {
    const text = html(`${block('a = 1\nb = 2')}<p>produces</p>${block('3')}
      ${block('x')}<p>The call above is the same as this one.</p>${block('y')}`);
    expect(text).toBe(
      '```\na = 1\nb = 2\n```\n\nproduces\n\n```\n3\n```\n\n```\nx\n```\n\nThe call above is the same as this one.\n\n```\ny\n```',
    );
  });
});
