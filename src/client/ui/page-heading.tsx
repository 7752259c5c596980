import { useEffect } from 'react';
import { shop } from '@/shared/shop.ts';

/** A page's title with the shop's name, as the server writes it (src/server/seo/page-meta.ts). */
export const shopTitle = (title: string) => `${title} | ${shop.tradeName}`;

/** Sets the document title; the server already wrote it for the first load. */
export function useDocumentTitle(title: string | undefined) {
  useEffect(() => {
    if (title) document.title = title;
  }, [title]);
}

/** A page's heading (and title). Screens whose issue has not landed show only this. */
export function PageHeading({ title, documentTitle }: { title: string; documentTitle?: string }) {
  useDocumentTitle(documentTitle ?? title);
  return (
    <div className="mx-auto max-w-7xl px-4 py-8">
      <h1 className="text-2xl font-semibold text-slate-900 sm:text-3xl">{title}</h1>
    </div>
  );
}
