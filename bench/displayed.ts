/**
 * An answer as the widget shows it: inline code and emphasis marks are formatting, not text. An
 * emphasis ends at its first closing mark: "less than _N_. The default value of _N_ is 3." shows
 * "N" twice. A code span opens and closes with runs of as many backticks, as the widget reads it
 * (widget/markdown.ts), so a value holding a backtick (Sphinx's ``'*=-~"+`'``, written in a
 * double-backtick span) shows that backtick; the single spaces padding such a span are not text.
 */
export const displayed = (markdown: string): string =>
  markdown
    .replace(/(`+)([\s\S]*?[^`])\1(?!`)/g, (_, _ticks: string, code: string) =>
      code.trim() === '' ? code : code.trim(),
    )
    .replace(/(^|[\s(])([_*]{1,2})(\S(?:.*?\S)??)\2(?=[\s).,;:!?]|$)/g, '$1$3');
