import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { RequireSignedIn } from '@/client/lib/auth/require-signed-in.tsx';
import { Alert } from '@/client/ui/alert.tsx';
import { shopTitle, useDocumentTitle } from '@/client/ui/page-heading.tsx';
import { Spinner } from '@/client/ui/spinner.tsx';
import { useOrderReturns } from '../api/returns.ts';
import { ReturnCard } from '../components/return-card.tsx';
import { ReturnForm } from '../components/return-form.tsx';

const longDay = new Intl.DateTimeFormat('es-MX', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'UTC',
});
const dayText = (ymd: string) => longDay.format(new Date(`${ymd}T00:00:00Z`));

function Returns({ number }: { number: number }) {
  const query = useOrderReturns(number);
  const [asking, setAsking] = useState(false);
  if (query.isPending) return <Spinner />;
  if (query.isError) return <Alert tone="danger">{query.error.message}</Alert>;
  const data = query.data;
  const canAsk = data.closedBecause === null && data.lines.some((l) => l.returnable > 0);
  return (
    <div className="space-y-6">
      <p className="text-sm text-slate-700" data-testid="return-window">
        {data.deliveredOn && data.windowEnds
          ? `Entregado el ${dayText(data.deliveredOn)}. Puede solicitar una devolución hasta el ${dayText(data.windowEnds)} (${data.windowDays} días después de la entrega).`
          : `Las devoluciones se solicitan dentro de los ${data.windowDays} días siguientes a la entrega.`}{' '}
        <Link to="/politica_de_devoluciones" className="font-medium text-brand-700 hover:underline">
          Política de devoluciones
        </Link>
      </p>
      {data.closedBecause && (
        <Alert tone={data.returns.length ? 'info' : 'warning'}>{data.closedBecause}</Alert>
      )}
      {data.returns.length > 0 && (
        <ul className="space-y-4">
          {[...data.returns].reverse().map((r) => (
            <ReturnCard key={r.id} item={r} />
          ))}
        </ul>
      )}
      {canAsk &&
        (asking || data.returns.length === 0 ? (
          <ReturnForm
            data={data}
            onDone={() => {
              setAsking(false);
              window.scrollTo({ top: 0 });
            }}
          />
        ) : (
          <button
            type="button"
            onClick={() => setAsking(true)}
            className="rounded-md border border-brand-700 px-3 py-1.5 text-sm font-medium text-brand-800 hover:bg-brand-50"
          >
            Solicitar otra devolución
          </button>
        ))}
    </div>
  );
}

/** /historial/devoluciones/:number — the buyer asks to return products of a delivered order and follows it. */
export function Component() {
  const number = Number(useParams().number);
  useDocumentTitle(shopTitle(`Devoluciones del pedido #${number}`));
  return (
    <div className="mx-auto max-w-3xl px-4 py-8">
      <Link to="/historial" className="text-sm font-medium text-brand-700 hover:underline">
        ← Historial de pedidos
      </Link>
      <h1 className="mt-2 mb-4 text-2xl font-semibold text-slate-900 sm:text-3xl">
        Devoluciones del pedido #{number}
      </h1>
      <RequireSignedIn>
        <Returns number={number} />
      </RequireSignedIn>
    </div>
  );
}
