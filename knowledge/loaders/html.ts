/**
 * HTML as Markdown: the page's main content (its `<main>`, or its only `<article>`, else the
 * body) without navigation, page headers and footers, scripts, styles, forms or hidden parts.
 * Headings become `#` headings for the chunker; links keep their text and drop their targets,
 * images keep their alt text, since addresses are noise in a passage.
 */
import { parseHTML } from 'linkedom';
import TurndownService from 'turndown';
import { firstHeading } from './markdown.js';
import { cleanTitle, normalizeText } from './normalize.js';

export interface HtmlText {
  text: string;
  /** The `<title>`, else the first `# ` heading of the content. */
  title?: string;
}

const NEVER_CONTENT = [
  'script',
  'style',
  'noscript',
  'template',
  'nav',
  'aside',
  'form',
  'button',
  'select',
  'iframe',
  'object',
  'embed',
  'svg',
  'canvas',
  '[role="navigation"]',
  '[role="banner"]',
  '[role="contentinfo"]',
  '[role="search"]',
  '[aria-hidden="true"]',
  '[hidden]',
].join(', ');

const markdown = new TurndownService({
  headingStyle: 'atx',
  codeBlockStyle: 'fenced',
  bulletListMarker: '-',
});
// Passages are read as text, not rendered: Markdown escapes (`snake\_case`) would only be noise.
markdown.escape = (text) => text;
markdown.addRule('linkText', { filter: 'a', replacement: (content) => content }).addRule('imageAlt', {
  filter: 'img',
  replacement: (_content, node) => (node as HTMLElement).getAttribute('alt')?.trim() ?? '',
});

export function readHtml(html: string): HtmlText {
  const { document } = parseHTML(html);
  const root = mainContent(document);
  for (const element of root.querySelectorAll(NEVER_CONTENT)) element.remove();
  // The page's own header and footer are chrome; an article's or section's are content.
  for (const element of root.querySelectorAll('header, footer')) {
    if (!element.parentElement?.closest('article, main, section')) element.remove();
  }
  const text = normalizeText(markdown.turndown(root as HTMLElement));
  const title = cleanTitle(document.title ?? '') || firstHeading(text);
  return { text, title };
}

function mainContent(document: Document): Element {
  const main = document.querySelector('main, [role="main"]');
  if (main) return main;
  const articles = document.querySelectorAll('article');
  if (articles.length === 1 && articles[0]) return articles[0];
  return document.body ?? document.documentElement;
}
