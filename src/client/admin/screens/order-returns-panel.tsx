import { Link } from 'react-router';
import { formatMoney } from '@/shared/money.ts';
import { useAdminOrderReturns } from '../api/returns.ts';
import { Badge, formatDateTime, Panel } from '../components/admin-ui.tsx';
import { RETURN_TONES } from './return-detail.tsx';

/** The order's returns (issue 35) on its detail screen, each linking to its own screen where staff act. */
export function OrderReturnsPanel({ orderNumber }: { orderNumber: number }) {
  const query = useAdminOrderReturns(orderNumber);
  const items = query.data?.items ?? [];
  if (items.length === 0) return null;
  return (
    <Panel title="Devoluciones">
      <ul className="divide-y divide-slate-100 text-sm" data-testid="order-returns-panel">
        {items.map((r) => (
          <li key={r.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
            <Link to={`/admin/devoluciones/${r.id}`} className="font-medium text-brand-700 hover:underline">
              Devolución #{r.id}
            </Link>
            <span className="text-slate-600">
              {r.reasonLabel} · {formatMoney(r.valueCents)} · {formatDateTime(r.createdAt)}
            </span>
            <Badge tone={RETURN_TONES[r.state]}>{r.stateLabel}</Badge>
          </li>
        ))}
      </ul>
    </Panel>
  );
}
