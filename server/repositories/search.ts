import { sql, type RawBuilder, type SqlBool } from 'kysely';

/** Escapes LIKE wildcards so a search key matches literally. */
export function likePattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The list endpoints' `searchKey`: rows whose name (in any case) or id contains the key literally.
 * Columns are qualified names such as `groups.name`.
 */
export function nameOrIdContains(
  nameColumn: string,
  idColumn: string,
  searchKey: string,
): RawBuilder<SqlBool> {
  const pattern = likePattern(searchKey);
  return sql<SqlBool>`(lower(${sql.ref(nameColumn)}) like ${pattern} escape '\\' or ${sql.ref(idColumn)} like ${pattern} escape '\\')`;
}
