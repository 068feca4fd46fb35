import { describe, expect, it } from 'vitest';
import { displayed } from '../../bench/displayed.js';
import { markdownToPlainText } from '../../widget/markdown.js';

describe('bench answers: an answer as the widget shows it', () => {
  it('drops inline code and emphasis marks', () => {
    expect(displayed('Default is `False`. Set _N_ to **3**.')).toBe('Default is False. Set N to 3.');
  });

  it("shows the backtick a double-backtick code span holds, as the widget does (Sphinx's text_sectionchars)", () => {
    const answer = "The default is ``'*=-~\"+`'``. [1]";
    expect(displayed(answer)).toBe("The default is '*=-~\"+`'. [1]");
    expect(displayed(answer)).toBe(markdownToPlainText(answer));
  });
});
