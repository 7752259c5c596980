import type { ReactNode } from 'react';

/** Readable long-form text (policies, help pages) without a typography plugin. */
export const proseClasses = [
  'max-w-none text-[0.975rem] leading-7 text-slate-700',
  '[&_h2]:mt-10 [&_h2]:scroll-mt-32 [&_h2]:text-xl [&_h2]:font-semibold [&_h2]:tracking-tight [&_h2]:text-slate-900',
  '[&_h3]:mt-6 [&_h3]:font-semibold [&_h3]:text-slate-900',
  '[&_p]:mt-4 [&_ul]:mt-4 [&_ul]:list-disc [&_ul]:space-y-2 [&_ul]:pl-6 [&_ul_ul]:mt-2',
  '[&_ol]:mt-4 [&_ol]:list-decimal [&_ol]:space-y-2 [&_ol]:pl-6',
  '[&_li]:pl-1 [&_li::marker]:text-brand-500',
  '[&_a]:font-medium [&_a]:text-brand-700 [&_a]:underline [&_a]:underline-offset-2 [&_a:hover]:text-brand-900',
  '[&_strong]:font-semibold [&_strong]:text-slate-900',
  '[&>:first-child]:mt-0',
].join(' ');

export function Prose({ children }: { children: ReactNode }) {
  return <div className={proseClasses}>{children}</div>;
}

/** A highlighted box inside long text (key figures, how to reach us). */
export function Callout({ title, children }: { title?: string; children: ReactNode }) {
  return (
    <div className="mt-6 rounded-lg border border-brand-100 bg-brand-50 px-5 py-4 text-slate-800">
      {title && <p className="mt-0! font-semibold text-brand-900">{title}</p>}
      <div className="[&>*]:mt-1.5! [&_li]:mt-1! [&>:first-child]:mt-1!">{children}</div>
    </div>
  );
}
