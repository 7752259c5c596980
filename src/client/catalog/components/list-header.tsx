import type { ReactNode } from 'react';
import { Breadcrumb, type Crumb } from '@/client/ui/breadcrumb.tsx';
import { groupThousands } from '@/shared/money.ts';

/** Breadcrumb, the screen's h1 and a line under it (count of products or results). */
export function ListHeader({
  crumbs,
  title,
  subtitle,
  aside,
}: {
  crumbs: Crumb[];
  title: ReactNode;
  subtitle?: ReactNode;
  aside?: ReactNode;
}) {
  return (
    <div>
      <Breadcrumb items={crumbs} />
      <div className="mt-3 flex items-center justify-between gap-4">
        <div className="min-w-0">
          <h1 className="text-2xl font-semibold tracking-tight text-slate-900 sm:text-3xl">{title}</h1>
          {subtitle && <p className="mt-1 text-sm text-slate-600 sm:text-base">{subtitle}</p>}
        </div>
        {aside}
      </div>
    </div>
  );
}

export const countText = (n: number) => (n === 1 ? '1 producto' : `${groupThousands(n)} productos`);
