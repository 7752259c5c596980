import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { Alert } from '@/client/ui/alert.tsx';
import { useDocumentTitle } from '@/client/ui/page-heading.tsx';
import { Spinner } from '@/client/ui/spinner.tsx';
import { formatMoney } from '@/shared/money.ts';
import {
  RESTOCK_DISPOSITIONS,
  RESTOCK_LABELS,
  type RestockDisposition,
  type ReturnState,
} from '@/shared/returns.ts';
import type { ReturnView } from '@/shared/schemas/returns.ts';
import { useAdminReturn, useReturnStep } from '../api/returns.ts';
import {
  Badge,
  buttonClass,
  fieldClass,
  formatDateTime,
  Panel,
  ScreenTitle,
} from '../components/admin-ui.tsx';

export const RETURN_TONES: Record<ReturnState, string> = {
  requested: 'paid',
  authorized: 'preparing',
  refused: 'cancelled',
  received: 'shipped',
  refunded: 'delivered',
  closed: 'inactive',
};

/** A reason typed by staff and a button: refuse a request, close a return that does not proceed. */
function ReasonForm({
  label,
  danger,
  onSubmit,
  busy,
}: {
  label: string;
  danger?: boolean;
  busy: boolean;
  onSubmit: (reason: string) => void;
}) {
  const [reason, setReason] = useState('');
  return (
    <form
      className="grid content-start gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit(reason);
      }}
    >
      <textarea
        className={fieldClass}
        rows={2}
        value={reason}
        onChange={(e) => setReason(e.target.value)}
        placeholder="Motivo (lo lee el cliente)"
        aria-label={`Motivo para ${label.toLowerCase()}`}
      />
      <button type="submit" disabled={busy} className={danger ? buttonClass.danger : buttonClass.secondary}>
        {label}
      </button>
    </form>
  );
}

function Steps({ item }: { item: ReturnView }) {
  const step = useReturnStep(item.id);
  const busy = step.isPending;
  const [instructions, setInstructions] = useState(
    'Envíe la mercancía en su empaque original a: Calle Industria Textil 2840, Parque Industrial El Álamo, 45560 Tlaquepaque, Jal. Anote en la caja el número de devolución.',
  );
  const [labelUrl, setLabelUrl] = useState('');
  const [where, setWhere] = useState<Record<number, RestockDisposition>>(
    Object.fromEntries(item.lines.map((l) => [l.lineNo, l.mustQuarantine ? 'quarantine' : 'sellable'])),
  );
  if (item.state === 'requested')
    return (
      <div className="grid gap-5 md:grid-cols-2">
        <form
          className="grid content-start gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            step.mutate({
              kind: 'authorize',
              body: { instructions, ...(labelUrl.trim() ? { labelUrl: labelUrl.trim() } : {}) },
            });
          }}
        >
          <label className="text-sm font-medium text-slate-800" htmlFor="rma-instructions">
            Instrucciones de envío
          </label>
          <textarea
            id="rma-instructions"
            className={fieldClass}
            rows={5}
            value={instructions}
            onChange={(e) => setInstructions(e.target.value)}
          />
          <input
            className={fieldClass}
            value={labelUrl}
            onChange={(e) => setLabelUrl(e.target.value)}
            placeholder="Enlace https a la guía prepagada (opcional)"
            aria-label="Enlace a la guía prepagada"
          />
          <button type="submit" disabled={busy} className={buttonClass.primary}>
            Autorizar devolución
          </button>
        </form>
        <ReasonForm
          label="Rechazar solicitud"
          danger
          busy={busy}
          onSubmit={(reason) => step.mutate({ kind: 'refuse', body: { reason } })}
        />
      </div>
    );
  if (item.state === 'authorized')
    return (
      <button
        type="button"
        disabled={busy}
        className={buttonClass.primary}
        onClick={() => step.mutate({ kind: 'receive', body: {} })}
      >
        Marcar mercancía recibida
      </button>
    );
  if (item.state === 'received')
    return (
      <div className="grid gap-5 md:grid-cols-2">
        <form
          className="grid content-start gap-3"
          onSubmit={(e) => {
            e.preventDefault();
            step.mutate({
              kind: 'refund',
              body: {
                lines: item.lines.map((l) => ({
                  lineNo: l.lineNo,
                  disposition: where[l.lineNo] ?? 'quarantine',
                })),
              },
            });
          }}
        >
          <p className="text-sm text-slate-700">Revisada la mercancía, ¿a dónde va cada producto?</p>
          {item.lines.map((l) => (
            <label key={l.lineNo} className="grid gap-1 text-sm text-slate-700">
              {l.quantity} × {l.description}
              <select
                className={fieldClass}
                value={where[l.lineNo]}
                onChange={(e) => setWhere({ ...where, [l.lineNo]: e.target.value as RestockDisposition })}
              >
                {RESTOCK_DISPOSITIONS.map((d) => (
                  <option key={d} value={d} disabled={d === 'sellable' && l.mustQuarantine}>
                    {RESTOCK_LABELS[d]}
                  </option>
                ))}
              </select>
              {l.mustQuarantine && (
                <span className="text-xs text-amber-800">Reactivo o controlado: no vuelve a la venta.</span>
              )}
            </label>
          ))}
          <button type="submit" disabled={busy} className={buttonClass.primary}>
            Reembolsar {formatMoney(item.valueCents)} y regresar al almacén
          </button>
          <p className="text-xs text-slate-500">
            El reembolso va por la vía del pago (tarjeta por Openpay; SPEI o efectivo a la CLABE del cliente)
            y, si el pedido tiene factura, se emite su nota de crédito.
          </p>
        </form>
        <ReasonForm
          label="No procede: cerrar sin reembolso"
          danger
          busy={busy}
          onSubmit={(reason) => step.mutate({ kind: 'close', body: { reason } })}
        />
      </div>
    );
  return null;
}

/** /admin/devoluciones/:id — one return: what, why, photos, and the next step. */
export function ReturnDetailScreen() {
  const id = Number(useParams().id);
  const query = useAdminReturn(id);
  useDocumentTitle(`Devolución #${id} — Administración`);
  if (query.isPending) return <Spinner />;
  if (query.isError) return <Alert tone="danger">{query.error.message}</Alert>;
  const item = query.data;
  return (
    <>
      <ScreenTitle
        title={
          <span className="flex flex-wrap items-center gap-3">
            Devolución #{item.id} <Badge tone={RETURN_TONES[item.state]}>{item.stateLabel}</Badge>
          </span>
        }
        subtitle={
          <>
            <Link to={`/admin/pedidos/${item.orderNumber}`} className="text-brand-700 hover:underline">
              Pedido #{item.orderNumber}
            </Link>{' '}
            · {item.buyerEmail} · solicitada {formatDateTime(item.createdAt)}
          </>
        }
      />
      <div className="grid gap-5 lg:grid-cols-[2fr_1fr]">
        <div className="grid content-start gap-5">
          <Panel title={`${item.reasonLabel} · ${formatMoney(item.valueCents)}`}>
            <p className="whitespace-pre-line text-sm text-slate-700">{item.description}</p>
            <ul className="mt-3 space-y-1 text-sm text-slate-800">
              {item.lines.map((l) => (
                <li key={l.lineNo}>
                  {l.quantity} × {l.description} ({l.productCode}) · {formatMoney(l.unitPriceCents)} c/u
                  {l.disposition ? (
                    <span className="text-slate-500"> — {RESTOCK_LABELS[l.disposition]}</span>
                  ) : null}
                </li>
              ))}
            </ul>
            {item.photos.length > 0 && (
              <div className="mt-4 flex flex-wrap gap-3">
                {item.photos.map((p, i) => (
                  <a key={p.id} href={p.url} target="_blank" rel="noopener noreferrer">
                    <img
                      src={p.url}
                      alt={`Foto ${i + 1} del cliente`}
                      className="size-28 rounded-md border border-slate-200 object-cover"
                    />
                  </a>
                ))}
              </div>
            )}
          </Panel>
          {['requested', 'authorized', 'received'].includes(item.state) && (
            <Panel title="Siguiente paso">
              <Steps item={item} />
            </Panel>
          )}
        </div>
        <div className="grid content-start gap-5">
          <Panel title="Seguimiento">
            <dl className="grid gap-2 text-sm">
              {item.instructions && (
                <div>
                  <dt className="text-xs uppercase text-slate-500">Instrucciones enviadas</dt>
                  <dd className="whitespace-pre-line text-slate-800">{item.instructions}</dd>
                </div>
              )}
              {item.labelUrl && (
                <div>
                  <dt className="text-xs uppercase text-slate-500">Guía</dt>
                  <dd>
                    <a
                      href={item.labelUrl}
                      className="text-brand-700 hover:underline"
                      target="_blank"
                      rel="noopener noreferrer"
                    >
                      {item.labelUrl}
                    </a>
                  </dd>
                </div>
              )}
              {item.staffNote && (
                <div>
                  <dt className="text-xs uppercase text-slate-500">Nota del personal</dt>
                  <dd className="text-slate-800">{item.staffNote}</dd>
                </div>
              )}
              {item.refund && (
                <div>
                  <dt className="text-xs uppercase text-slate-500">Reembolso</dt>
                  <dd className="text-slate-800">{item.refund.sentence}</dd>
                </div>
              )}
              <div>
                <dt className="text-xs uppercase text-slate-500">Última actualización</dt>
                <dd className="text-slate-800">{formatDateTime(item.updatedAt)}</dd>
              </div>
            </dl>
          </Panel>
        </div>
      </div>
    </>
  );
}
