// Cursor and page pagination shared by every list (spec › Limits › Pagination rules).
import { z } from '@hono/zod-openapi';
import { ApiError } from './errors';

const cursorId = z.coerce.number({ error: 'must be an integer id' }).int('must be an integer id').positive('must be a positive integer id');

export const cursorQuerySchema = z.object({
  limit: z.coerce
    .number({ error: 'must be an integer' })
    .int('must be an integer')
    .min(1, 'must be between 1 and 100')
    .max(100, 'must be between 1 and 100')
    .default(10)
    .openapi({ description: 'Items per page, 1 to 100.', example: 10 }),
  after: cursorId.optional().openapi({ description: 'Items after this id (the `next` value of the previous page).' }),
  before: cursorId.optional().openapi({ description: 'Items before this id (the `prev` value). Do not combine with `after`.' }),
});

export type CursorQuery = z.infer<typeof cursorQuerySchema>;

export const cursorPaginationSchema = z
  .object({
    count: z.number().int(),
    next: z.number().int().nullable().openapi({ description: 'Pass as `after` for the next page; null on the last page.' }),
    prev: z.number().int().nullable().openapi({ description: 'Pass as `before` for the previous page; null on the first page.' }),
  })
  .openapi('CursorPagination');

export const pageQuerySchema = z.object({
  page: z.coerce.number({ error: 'must be an integer' }).int('must be an integer').min(1, 'must be 1 or more').default(1),
  per_page: z.coerce
    .number({ error: 'must be an integer' })
    .int('must be an integer')
    .min(1, 'must be between 1 and 100')
    .max(100, 'must be between 1 and 100')
    .default(10),
});

export type PageQuery = z.infer<typeof pageQuerySchema>;

export const pagePaginationSchema = z
  .object({
    page: z.number().int(),
    per_page: z.number().int(),
    total: z.number().int(),
    total_pages: z.number().int(),
  })
  .openapi('PagePagination');

/** The slice of rows one cursor page reads: newest first unless paging backwards. */
export type CursorWindow = {
  /** Rows with a smaller id than this (paging forwards through newest-first order). */
  belowId?: number;
  /** Rows with a larger id than this (paging backwards). */
  aboveId?: number;
  /** One more than the page size, so the query tells whether another page exists. */
  take: number;
  order: 'desc' | 'asc';
};

export type CursorPage<T> = {
  data: T[];
  pagination: { count: number; next: number | null; prev: number | null };
};

/**
 * Runs `read` for one window and derives next/prev. Ids are the cursors (decisions.md › Identity);
 * every list is newest first, so `after` means smaller ids and `before` larger ones.
 */
export async function paginateByCursor<T extends { id: number }>(
  query: Pick<CursorQuery, 'limit' | 'after' | 'before'>,
  read: (window: CursorWindow) => Promise<T[]>,
): Promise<CursorPage<T>> {
  const { limit, after, before } = query;
  if (after !== undefined && before !== undefined) {
    throw new ApiError(400, 'Pass only one of after and before.');
  }
  if (before !== undefined) {
    const rows = await read({ aboveId: before, take: limit + 1, order: 'asc' });
    const more = rows.length > limit;
    const page = rows.slice(0, limit).reverse();
    return {
      data: page,
      pagination: {
        count: page.length,
        next: page.length ? page[page.length - 1].id : null,
        prev: more && page.length ? page[0].id : null,
      },
    };
  }
  const rows = await read({ belowId: after, take: limit + 1, order: 'desc' });
  const more = rows.length > limit;
  const page = rows.slice(0, limit);
  return {
    data: page,
    pagination: {
      count: page.length,
      next: more ? page[page.length - 1].id : null,
      prev: after !== undefined && page.length ? page[0].id : null,
    },
  };
}

export function pageMeta(query: PageQuery, total: number) {
  return {
    page: query.page,
    per_page: query.per_page,
    total,
    total_pages: Math.ceil(total / query.per_page),
  };
}
