/** The back office's lists: 25 rows a page. */
export const PAGE_SIZE = 25;
export const pagesOf = (total: number, size = PAGE_SIZE) => Math.max(1, Math.ceil(total / size));
export const pageWindow = (page: number) => ({ limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE });
