/**
 * Text as every loader hands it on: Unix line breaks, no byte-order mark, no control characters
 * (a form feed would be read as a page break, PAGE_SEPARATOR), no trailing spaces, at most one
 * blank line in a row.
 */
export function normalizeText(raw: string): string {
  return (
    raw
      .replace(/^\uFEFF/, '')
      .replace(/\r\n?/g, '\n')
      .replace(/\f/g, '\n\n')
      // eslint-disable-next-line no-control-regex -- removing control characters is the point
      .replace(/[\u0000-\u0008\u000B\u000E-\u001F\u007F]/g, '')
      .replace(/[ \t]+$/gm, '')
      .replace(/\n{3,}/g, '\n\n')
      .trim()
  );
}

/** A title on one line, of a readable length. */
export function cleanTitle(raw: string, maxLength = 200): string {
  const title = raw.replace(/\s+/g, ' ').trim();
  return title.length > maxLength ? `${title.slice(0, maxLength - 1).trimEnd()}…` : title;
}
