import { html, nothing, type TemplateResult } from 'lit';
import type { Block, Inline } from './markdown.js';

/** Renders parsed Markdown as Lit templates: every string is bound as text, never parsed as HTML. */
export function renderBlocks(blocks: readonly Block[]): TemplateResult[] {
  return blocks.map(renderBlock);
}

function renderBlock(block: Block): TemplateResult {
  switch (block.kind) {
    case 'paragraph':
      return html`<p>${renderInline(block.children)}</p>`;
    case 'heading':
      // Headings inside a message are styled text, not document headings that would break the page outline.
      return html`<p class="md-h md-h${block.level}"><strong>${renderInline(block.children)}</strong></p>`;
    case 'code':
      return html`<pre><code>${block.text}</code></pre>`;
    case 'quote':
      return html`<blockquote>${renderBlocks(block.children)}</blockquote>`;
    case 'list': {
      const items = block.items.map((item) => html`<li>${renderInline(item)}</li>`);
      return block.ordered
        ? html`<ol start=${block.start === 1 ? nothing : block.start}>
            ${items}
          </ol>`
        : html`<ul>
            ${items}
          </ul>`;
    }
    case 'rule':
      return html`<hr />`;
  }
}

export function renderInline(nodes: readonly Inline[]): Array<TemplateResult | string> {
  return nodes.map((node) => {
    switch (node.kind) {
      case 'text':
        return node.text;
      case 'code':
        return html`<code>${node.text}</code>`;
      case 'strong':
        return html`<strong>${renderInline(node.children)}</strong>`;
      case 'em':
        return html`<em>${renderInline(node.children)}</em>`;
      case 'link':
        return html`<a href=${node.href} target="_blank" rel="noopener noreferrer"
          >${renderInline(node.children)}</a
        >`;
      case 'break':
        return html`<br />`;
    }
  });
}
