import { describe, expect, it } from 'vitest';
import { markdownToPlainText, parseInline, parseMarkdown, safeHref } from '../../widget/markdown.js';

describe('markdown blocks', () => {
  it('split paragraphs at blank lines and keep single line breaks', () => {
    expect(parseMarkdown('one\ntwo\n\nthree')).toEqual([
      {
        kind: 'paragraph',
        children: [{ kind: 'text', text: 'one' }, { kind: 'break' }, { kind: 'text', text: 'two' }],
      },
      { kind: 'paragraph', children: [{ kind: 'text', text: 'three' }] },
    ]);
  });

  it('read bullet and numbered lists with their start number', () => {
    const [bullets, numbers] = parseMarkdown('- a\n- b\n\n3. c\n4. d');
    expect(bullets).toMatchObject({
      kind: 'list',
      ordered: false,
      items: [[{ text: 'a' }], [{ text: 'b' }]],
    });
    expect(numbers).toMatchObject({ kind: 'list', ordered: true, start: 3 });
  });

  it('keep fenced code verbatim, markup and all', () => {
    expect(parseMarkdown('```ts\nconst a = **b**;\n```')).toEqual([
      { kind: 'code', text: 'const a = **b**;' },
    ]);
  });

  it('read a line opening with a code span of three backticks as a paragraph, not a fence', () => {
    expect(parseMarkdown('``` postconf compatibility_level=N ``` [1] Sites may set 9999. [1]')).toEqual([
      {
        kind: 'paragraph',
        children: [
          { kind: 'code', text: 'postconf compatibility_level=N' },
          { kind: 'text', text: ' [1] Sites may set 9999. [1]' },
        ],
      },
    ]);
  });

  it('read headings, quotes and rules', () => {
    expect(parseMarkdown('## Title\n> quoted\n\n---').map((b) => b.kind)).toEqual([
      'heading',
      'quote',
      'rule',
    ]);
  });

  it('leave raw HTML as text', () => {
    expect(parseMarkdown('<img src=x onerror=alert(1)>')).toEqual([
      { kind: 'paragraph', children: [{ kind: 'text', text: '<img src=x onerror=alert(1)>' }] },
    ]);
  });
});

describe('markdown inlines', () => {
  it('read strong, emphasis and code', () => {
    expect(parseInline('**bold** and *it* and `x*y*`')).toEqual([
      { kind: 'strong', children: [{ kind: 'text', text: 'bold' }] },
      { kind: 'text', text: ' and ' },
      { kind: 'em', children: [{ kind: 'text', text: 'it' }] },
      { kind: 'text', text: ' and ' },
      { kind: 'code', text: 'x*y*' },
    ]);
  });

  it('read a backslash before punctuation as that punctuation, not as markup', () => {
    expect(parseInline('a range of [0:2\\*pi] (see \\*set angles\\*), and \\(\\*\\) opens nothing')).toEqual([
      { kind: 'text', text: 'a range of [0:2*pi] (see *set angles*), and (*) opens nothing' },
    ]);
  });

  it('read an underscore inside a word as text, as CommonMark does (kicad_prl … _emphasis_)', () => {
    expect(parseInline('*.kicad_prl | Local settings (the _.kicad_prl_ file)')).toEqual([
      { kind: 'text', text: '*.kicad_prl | Local settings (the ' },
      { kind: 'em', children: [{ kind: 'text', text: '.kicad_prl' }] },
      { kind: 'text', text: ' file)' },
    ]);
  });

  it('make links of http, https and mailto targets', () => {
    expect(parseInline('[docs](https://example.com/a)')).toEqual([
      { kind: 'link', href: 'https://example.com/a', children: [{ kind: 'text', text: 'docs' }] },
    ]);
  });

  it('keep the text of a javascript: link but drop the link', () => {
    expect(parseInline('[click](javascript:alert(1))')).toEqual([{ kind: 'text', text: 'click' }]);
  });

  it('link bare URLs without their trailing punctuation', () => {
    expect(parseInline('see https://example.com/x.')).toEqual([
      { kind: 'text', text: 'see ' },
      {
        kind: 'link',
        href: 'https://example.com/x',
        children: [{ kind: 'text', text: 'https://example.com/x' }],
      },
      { kind: 'text', text: '.' },
    ]);
  });

  it('leave underscores inside words alone', () => {
    expect(parseInline('snake_case_name')).toEqual([{ kind: 'text', text: 'snake_case_name' }]);
  });

  it('accept only http, https and mailto as link targets', () => {
    expect([
      safeHref('https://a.b'),
      safeHref('mailto:a@b.c'),
      safeHref('data:text/html,x'),
      safeHref('//a.b'),
    ]).toEqual(['https://a.b', 'mailto:a@b.c', undefined, undefined]);
  });
});

describe('plain text of markdown', () => {
  it('drops the markup for one-line previews', () => {
    expect(markdownToPlainText('Open **Settings** and [read](https://x.y)\n\n- one\n- two')).toBe(
      'Open Settings and read one two',
    );
  });

  it('drops inline code and emphasis marks, as the answer bench reads an answer', () => {
    expect(markdownToPlainText('Default is `False`. Set _N_ to **3**.')).toBe(
      'Default is False. Set N to 3.',
    );
  });

  it("shows the backtick a double-backtick code span holds (Sphinx's text_sectionchars)", () => {
    expect(markdownToPlainText("The default is ``'*=-~\"+`'``. [1]")).toBe("The default is '*=-~\"+`'. [1]");
  });
});
