import { describe, expect, it } from 'vitest';
import { barReporter, describeEvent } from '../../cli/commands/ingest-progress.js';
import { renderTable } from '../../cli/commands/table.js';

describe('renderTable', () => {
  it('pads columns to their widest cell, numbers to the right', () => {
    const table = renderTable(
      [{ header: 'namespace' }, { header: 'chunks', align: 'right' }],
      [
        ['docs', 1200],
        ['a-much-longer-name', 7],
      ],
    );
    expect(table).toBe(
      [
        'namespace           chunks',
        '------------------  ------',
        'docs                  1200',
        'a-much-longer-name       7',
        '',
      ].join('\n'),
    );
  });
});

describe('the ingest progress bar', () => {
  /** A terminal that keeps what was written, 60 columns wide. */
  const terminal = () => {
    let written = '';
    const stream = {
      columns: 60,
      write: (text: string) => ((written += text), true),
    } as unknown as NodeJS.WriteStream;
    return { stream, written: () => written };
  };

  it('redraws one line with the sources done out of queued', () => {
    const { stream, written } = terminal();
    const bar = barReporter(stream);
    bar.onProgress({ type: 'queued', source: 'a.md' });
    bar.onProgress({ type: 'queued', source: 'b.md' });
    bar.onProgress({ type: 'unchanged', source: 'a.md', documentId: 'a' });
    bar.onProgress({ type: 'indexed', source: 'b.md', documentId: 'b', title: 'B', chunks: 3, warnings: [] });
    const lastFrame = written().split('\r\x1b[2K').at(-1);
    expect(lastFrame).toBe(`[${'#'.repeat(24)}] 2/2  b.md`);
    expect(written()).not.toContain('\n');
  });

  it('prints a failure above the bar so it stays on screen', () => {
    const { stream, written } = terminal();
    const bar = barReporter(stream);
    bar.onProgress({ type: 'queued', source: 'bad.pdf' });
    bar.onProgress({ type: 'queued', source: 'next.pdf' });
    bar.onProgress({ type: 'failed', source: 'bad.pdf', error: 'not a PDF file' });
    expect(written()).toContain('\r\x1b[2Kfailed bad.pdf: not a PDF file\n');
    expect(written().split('\n').at(-1)).toContain(`[${'#'.repeat(12)}${'-'.repeat(12)}] 1/2`);
  });

  it('shows the page being parsed', () => {
    const { stream, written } = terminal();
    const bar = barReporter(stream);
    bar.onProgress({ type: 'queued', source: 'big.pdf' });
    bar.onProgress({ type: 'queued', source: 'other.pdf' });
    bar.onProgress({ type: 'unchanged', source: 'other.pdf', documentId: 'o' });
    bar.onProgress({ type: 'parsing', source: 'big.pdf', page: 7, pages: 40 });
    bar.finish();
    expect(written().split('\r\x1b[2K').slice(-2)).toEqual([
      `[${'#'.repeat(12)}${'-'.repeat(12)}] 1/2  big.pdf page 7/40`,
      '',
    ]);
  });
});

describe('plain progress lines', () => {
  it('describe finished steps and stay silent on queueing and page steps', () => {
    expect(
      describeEvent({
        type: 'indexed',
        source: 'x.pdf',
        documentId: 'x',
        title: 'X',
        pages: 4,
        chunks: 9,
        warnings: [],
      }),
    ).toBe('indexed x.pdf: 4 pages, 9 chunks');
    expect(describeEvent({ type: 'failed', source: 'y.md', error: 'unreadable' })).toBe(
      'failed y.md: unreadable',
    );
    expect(describeEvent({ type: 'queued', source: 'z.md' })).toBeUndefined();
    expect(describeEvent({ type: 'parsing', source: 'z.pdf', page: 1, pages: 2 })).toBeUndefined();
  });
});
