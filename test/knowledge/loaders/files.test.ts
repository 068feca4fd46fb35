import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSource, SourceError } from '../../../knowledge/loaders/index.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'parley-files-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function file(name: string, content: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, content);
  return path;
}

const PAGE = `<!doctype html>
<html>
<head>
  <title>Pump Manual</title>
  <style>.warning { color: red }</style>
  <script>window.analyticsKey = "abc";</script>
</head>
<body>
  <header><a href="/">Home</a> | <a href="/docs">Docs</a></header>
  <nav><ul><li>Menu: all products</li></ul></nav>
  <main>
    <h1>Installing the pump</h1>
    <p>Mount the <a href="/bracket">bracket</a> first, then the <img src="pump.png" alt="pump body">.</p>
    <h2>Wiring</h2>
    <p>Connect the red wire to terminal_1.</p>
    <script>track("view")</script>
  </main>
  <footer>Copyright Pumps Inc.</footer>
</body>
</html>`;

describe('HTML files', () => {
  it('keeps the main content as Markdown with its headings', async () => {
    const doc = await loadSource({ kind: 'file', path: await file('manual.html', PAGE) });
    expect(doc.format).toBe('html');
    expect(doc.pages).toEqual([
      {
        text: '# Installing the pump\n\nMount the bracket first, then the pump body.\n\n## Wiring\n\nConnect the red wire to terminal_1.',
      },
    ]);
  });

  it('drops navigation, page header and footer, scripts and styles', async () => {
    const doc = await loadSource({ kind: 'file', path: await file('chrome.htm', PAGE) });
    const text = doc.pages[0]?.text ?? '';
    for (const chrome of ['Menu', 'Home', 'Copyright', 'analyticsKey', 'track(', 'color: red']) {
      expect(text).not.toContain(chrome);
    }
  });

  it('takes the title from <title>', async () => {
    const doc = await loadSource({ kind: 'file', path: await file('titled.html', PAGE) });
    expect(doc.title).toBe('Pump Manual');
  });

  it('reads the whole body when there is no <main>, keeping an article header', async () => {
    const html = `<body><nav>Site menu</nav><article><header><h1>Release notes</h1></header><p>Version 2 is out.</p></article></body>`;
    const doc = await loadSource({ kind: 'file', path: await file('notes.html', html) });
    expect(doc.pages[0]?.text).toBe('# Release notes\n\nVersion 2 is out.');
    expect(doc.title).toBe('Release notes');
  });
});

const MDX = `---
title: "Setup: the quick way"
sidebar_position: 2
---
import { Tabs, Tab } from '@site/components';
export const meta = {
  draft: false,
};

# Getting started

<Tabs>
  <Tab label="npm">
Run the installer.
  </Tab>
</Tabs>

<Callout
  type="warning"
>
Back up your data first.
</Callout>

Press <Kbd>Enter</Kbd> to continue, or type \`<Skip />\`.

{/* a comment for editors */}

\`\`\`jsx
import Button from './button';
const save = <Button label="Save" />;
\`\`\`
`;

describe('Markdown and MDX files', () => {
  it('drops MDX imports, exports, JSX tags and expressions but keeps text and code', async () => {
    const doc = await loadSource({ kind: 'file', path: await file('setup.mdx', MDX) });
    expect(doc.format).toBe('markdown');
    expect(doc.pages[0]?.text).toBe(
      [
        '# Getting started',
        'Run the installer.',
        'Back up your data first.',
        'Press Enter to continue, or type `<Skip />`.',
        '```jsx\nimport Button from \'./button\';\nconst save = <Button label="Save" />;\n```',
      ].join('\n\n'),
    );
  });

  it('takes the title from front matter', async () => {
    const doc = await loadSource({ kind: 'file', path: await file('titled.mdx', MDX) });
    expect(doc.title).toBe('Setup: the quick way');
  });

  it('takes the title from the first # heading when there is no front matter title', async () => {
    const md = '---\ntags: [a]\n---\nIntro line.\n\n## Not this\n\n# Pump guide\n\nText.';
    const doc = await loadSource({ kind: 'file', path: await file('guide.md', md) });
    expect(doc.title).toBe('Pump guide');
    expect(doc.pages[0]?.text).toBe('Intro line.\n\n## Not this\n\n# Pump guide\n\nText.');
  });

  it('rewrites setext headings as # headings', async () => {
    const doc = await loadSource({
      kind: 'file',
      path: await file('setext.md', 'Manual\n======\n\nUsage\n-----\n\nText.'),
    });
    expect(doc.pages[0]?.text).toBe('# Manual\n\n## Usage\n\nText.');
  });

  it('warns about front matter that is not YAML and still loads the text', async () => {
    const doc = await loadSource({
      kind: 'file',
      path: await file('bad.md', '---\ntitle: [unclosed\n---\nBody text.'),
    });
    expect(doc.pages[0]?.text).toBe('Body text.');
    expect(doc.warnings).toEqual(['front matter is not valid YAML: its title was not read']);
  });
});

describe('text files', () => {
  it('reads a .txt file as one page of normalised text titled by its file name', async () => {
    const doc = await loadSource({
      kind: 'file',
      path: await file('notes.txt', '\uFEFFLine one\r\nLine two   \r\n\r\n\r\n\r\nLast'),
    });
    expect(doc).toEqual({
      title: 'notes.txt',
      origin: { kind: 'file', path: join(dir, 'notes.txt') },
      format: 'text',
      pages: [{ text: 'Line one\nLine two\n\nLast' }],
      warnings: [],
    });
  });

  it('refuses a file without text', async () => {
    await expect(loadSource({ kind: 'file', path: await file('empty.txt', ' \n\n ') })).rejects.toThrow(
      'no text found',
    );
  });
});

describe('file errors', () => {
  it('refuses an unsupported extension by name, listing the supported ones', async () => {
    await expect(loadSource({ kind: 'file', path: await file('report.docx', 'x') })).rejects.toThrow(
      new SourceError('unsupported file type ".docx": supported are .pdf, .md, .mdx, .txt, .html, .htm'),
    );
  });

  it('refuses a file without an extension', async () => {
    await expect(loadSource({ kind: 'file', path: await file('README', 'x') })).rejects.toThrow(
      'unsupported file type (no extension)',
    );
  });

  it('reports a missing file', async () => {
    await expect(loadSource({ kind: 'file', path: join(dir, 'missing.md') })).rejects.toThrow(
      new SourceError('file not found'),
    );
  });

  it('reports a folder given as a file', async () => {
    await mkdir(join(dir, 'folder.md'));
    await expect(loadSource({ kind: 'file', path: join(dir, 'folder.md') })).rejects.toThrow('is a folder');
  });
});
