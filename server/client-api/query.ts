import { z } from 'zod';
import { PageNumber, PageSize } from '../validation.js';

/** The SDK sends `per_page` and `page` (from 1) on every page-based list. */
export const PageQuery = z.looseObject({
  per_page: PageSize.default(30),
  page: PageNumber.default(1),
});

/** The SDK joins arrays with commas and does not URL-encode them. */
export const CommaList = z.string().transform((value) =>
  value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== ''),
);

/** Query-string flags: the SDK sends `1`, `true` or `0`. */
export const Flag = z
  .enum(['true', 'false', '1', '0'], { error: 'must be 1, 0, true or false' })
  .transform((value) => value === 'true' || value === '1');
