import { type ReactNode, useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { ApiError } from '@/client/lib/api-client.ts';
import { useSingleFlight } from '@/client/lib/use-single-flight.ts';
import { Alert } from '@/client/ui/alert.tsx';
import { TextField } from '@/client/ui/form-field.tsx';
import type { DecisionResponse, RequisitionDetail } from '@/shared/schemas/requisitions.ts';
import { type RequisitionAction, useRequisitionAction } from '../api/requisitions.ts';

const button =
  'inline-flex items-center justify-center rounded-md border px-4 py-2 text-sm font-semibold transition disabled:cursor-wait disabled:opacity-70';
const primary = `${button} border-brand-700 bg-brand-700 text-white hover:bg-brand-800`;
const danger = `${button} border-red-300 bg-white text-red-700 hover:bg-red-50`;
const secondary = `${button} border-slate-300 bg-white text-slate-700 hover:bg-slate-50`;
const textarea =
  'block w-full rounded-md border border-slate-300 px-3 py-2 text-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-100';

const errorText = (error: unknown) =>
  error instanceof ApiError && error.status !== 0 ? error.message : 'Error de conexión. Intente de nuevo.';

function Panel({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="rounded-lg border border-slate-200 bg-white p-4">
      <h2 className="mb-3 font-semibold text-slate-900">{title}</h2>
      <div className="space-y-3">{children}</div>
    </section>
  );
}

/** The buttons the member's role may use now (the server says which, and checks each again). */
export function RequisitionActions({ r }: { r: RequisitionDetail }) {
  const act = useRequisitionAction(r.id);
  const flight = useSingleFlight();
  const [comment, setComment] = useState('');
  const [reason, setReason] = useState('');
  const [purchaseOrder, setPurchaseOrder] = useState('');
  const [fields, setFields] = useState({ note: r.note, costCentre: r.costCentre, project: r.project });
  const [error, setError] = useState<string | null>(null);
  const [confirmCancel, setConfirmCancel] = useState(false);

  const run = (action: RequisitionAction, body: object, done: string) =>
    flight.run(async () => {
      setError(null);
      try {
        const answer = await act(action, body);
        const decision = 'placed' in answer ? (answer as DecisionResponse) : null;
        if (decision?.placeError) setError(`Aprobada, pero el pedido no se colocó: ${decision.placeError}`);
        toast.success(decision?.placed ? `Pedido #${decision.placed.orderNumber} colocado` : done);
      } catch (e) {
        setError(errorText(e));
        toast.error(errorText(e));
      }
    });

  const a = r.actions;
  const deciding = a.reject || a.return;
  return (
    <div className="space-y-4">
      {error && <Alert tone="danger">{error}</Alert>}
      {r.orderNumber !== null && r.state === 'colocada' && (
        <Alert tone="success">
          Pedido #{r.orderNumber} colocado a los precios cotizados.{' '}
          <Link className="font-semibold underline" to={`/resumen/${r.orderNumber}`}>
            Ver el pedido y la referencia de pago
          </Link>
        </Alert>
      )}
      {a.approve && (
        <Panel title="Aprobar">
          <label className="block text-sm font-medium text-slate-700" htmlFor="approve-comment">
            Comentario (opcional)
          </label>
          <textarea
            id="approve-comment"
            className={textarea}
            rows={2}
            maxLength={500}
            value={comment}
            onChange={(e) => setComment(e.target.value)}
          />
          <button
            type="button"
            className={primary}
            disabled={flight.busy}
            onClick={() => run('approve', comment.trim() ? { reason: comment } : {}, 'Requisición aprobada')}
          >
            {r.institution.approvalPlacesOrder ? 'Aprobar y colocar el pedido' : 'Aprobar'}
          </button>
        </Panel>
      )}
      {deciding && (
        <Panel title={a.reject ? 'Rechazar o devolver' : 'Devolver para cambios'}>
          <label className="block text-sm font-medium text-slate-700" htmlFor="decision-reason">
            Motivo (se envía al solicitante)
          </label>
          <textarea
            id="decision-reason"
            className={textarea}
            rows={2}
            maxLength={500}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
          />
          <div className="flex flex-wrap gap-2">
            {a.return && (
              <button
                type="button"
                className={secondary}
                disabled={flight.busy}
                onClick={() => run('return', { reason }, 'Requisición devuelta para cambios')}
              >
                Devolver para cambios
              </button>
            )}
            {a.reject && (
              <button
                type="button"
                className={danger}
                disabled={flight.busy}
                onClick={() => run('reject', { reason }, 'Requisición rechazada')}
              >
                Rechazar
              </button>
            )}
          </div>
        </Panel>
      )}
      {a.place && (
        <Panel title="Colocar el pedido">
          {r.placeNote && <Alert tone="warning">{r.placeNote}</Alert>}
          <p className="text-sm text-slate-600">
            Se coloca a los precios cotizados ({r.quotationFolio}) a nombre de {r.institution.razonSocial},
            con pago por transferencia SPEI: la referencia le llega por correo.
          </p>
          <TextField
            label="Orden de compra (opcional)"
            value={purchaseOrder}
            maxLength={40}
            onChange={(e) => setPurchaseOrder(e.target.value)}
          />
          <button
            type="button"
            className={primary}
            disabled={flight.busy}
            onClick={() => run('place', purchaseOrder.trim() ? { purchaseOrder } : {}, 'Pedido colocado')}
          >
            Colocar pedido
          </button>
        </Panel>
      )}
      {a.edit && (
        <Panel title="Corregir y reenviar">
          <label className="block text-sm font-medium text-slate-700" htmlFor="resend-note">
            Nota para quien aprueba
          </label>
          <textarea
            id="resend-note"
            className={textarea}
            rows={2}
            maxLength={1000}
            value={fields.note}
            onChange={(e) => setFields({ ...fields, note: e.target.value })}
          />
          <div className="grid gap-3 sm:grid-cols-2">
            <TextField
              label={r.institution.costCentreLabel}
              value={fields.costCentre}
              maxLength={80}
              onChange={(e) => setFields({ ...fields, costCentre: e.target.value })}
            />
            <TextField
              label={r.institution.projectLabel}
              value={fields.project}
              maxLength={80}
              onChange={(e) => setFields({ ...fields, project: e.target.value })}
            />
          </div>
          <button
            type="button"
            className={primary}
            disabled={flight.busy}
            onClick={() => run('resend', fields, 'Requisición reenviada a aprobación')}
          >
            Reenviar a aprobación
          </button>
        </Panel>
      )}
      {a.cancel &&
        (confirmCancel ? (
          <div className="flex flex-wrap items-center gap-2 text-sm">
            <span>¿Cancelar la requisición {r.folio}?</span>
            <button
              type="button"
              className={danger}
              disabled={flight.busy}
              onClick={() => run('cancel', {}, 'Requisición cancelada')}
            >
              Sí, cancelar
            </button>
            <button type="button" className={secondary} onClick={() => setConfirmCancel(false)}>
              No
            </button>
          </div>
        ) : (
          <button type="button" className={secondary} onClick={() => setConfirmCancel(true)}>
            Cancelar requisición
          </button>
        ))}
    </div>
  );
}
