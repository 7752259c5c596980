import type { ReactNode } from 'react';
import { BrandMark } from '@/client/ui/brand-mark.tsx';
import { shop } from '@/shared/shop.ts';

/** The sign-in screens have no header or footer: a centred card under the shop's mark. */
export function AuthCard({
  title,
  subtitle,
  children,
  wide = false,
}: {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  wide?: boolean;
}) {
  return (
    <div className="flex min-h-screen flex-col items-center bg-gradient-to-b from-brand-50 via-slate-50 to-slate-100 px-4 py-8 sm:justify-center sm:py-12">
      <BrandMark />
      <section
        className={`mt-6 w-full rounded-2xl bg-white px-5 py-7 shadow-lg shadow-brand-900/5 ring-1 ring-slate-200 sm:px-8 sm:py-8 ${wide ? 'max-w-xl' : 'max-w-md'}`}
      >
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{title}</h1>
        {subtitle ? <div className="mt-1.5 text-sm text-slate-600">{subtitle}</div> : null}
        <div className="mt-6">{children}</div>
      </section>
      <p className="mt-6 text-center text-xs text-slate-500">
        © {shop.copyrightYear} {shop.legalName}
      </p>
    </div>
  );
}

export const linkClass = 'font-medium text-brand-700 underline-offset-2 hover:text-brand-800 hover:underline';
