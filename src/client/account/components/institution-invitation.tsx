import { Link, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { ApiError } from '@/client/lib/api-client.ts';
import { useSessionUser } from '@/client/lib/auth/session.ts';
import { Alert } from '@/client/ui/alert.tsx';
import { showServerError } from '@/client/ui/server-errors.ts';
import { Spinner } from '@/client/ui/spinner.tsx';
import { INSTITUTION_ROLE_HELP, INSTITUTION_ROLE_LABELS } from '@/shared/institutions.ts';
import { useAcceptInvitation, useInvitationPreview } from '../api/institutions.ts';

/** /cuenta/instituciones/invitacion/:token — what the link invites to, and «Aceptar» for the invited account. */
export function AcceptInvitation({ token }: { token: string }) {
  const preview = useInvitationPreview(token);
  const accept = useAcceptInvitation(token);
  const { user, pending } = useSessionUser();
  const navigate = useNavigate();
  const here = `/cuenta/instituciones/invitacion/${token}`;
  if (preview.isPending || pending) return <Spinner />;
  if (preview.error)
    return (
      <Alert tone="warning">
        {preview.error instanceof ApiError ? preview.error.message : 'No se pudo abrir la invitación'}
      </Alert>
    );
  const invitation = preview.data;
  const sameAccount = user?.email.toLowerCase() === invitation.email;
  return (
    <section className="mx-auto max-w-xl rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200 sm:p-8">
      <p className="text-sm font-medium uppercase tracking-wide text-brand-700">Invitación</p>
      <h1 className="mt-1 text-2xl font-semibold text-slate-900">{invitation.institution}</h1>
      <p className="mt-3 text-slate-700">
        Lo invitan como <strong>{INSTITUTION_ROLE_LABELS[invitation.role]}</strong>:{' '}
        {INSTITUTION_ROLE_HELP[invitation.role].toLowerCase()}
      </p>
      <p className="mt-1 text-sm text-slate-600">
        Para <span className="break-all">{invitation.email}</span> · válida hasta el{' '}
        {new Date(invitation.expiresAt).toLocaleDateString('es-MX', {
          dateStyle: 'long',
          timeZone: 'America/Mexico_City',
        })}
      </p>
      <div className="mt-6">
        {!user ? (
          <div className="flex flex-wrap gap-3">
            <Link
              to={`/ingresar?redirect=${encodeURIComponent(here)}`}
              className="rounded-lg bg-brand-700 px-5 py-2.5 font-semibold text-white hover:bg-brand-800"
            >
              Ingresar para aceptar
            </Link>
            <Link
              to="/registro"
              className="rounded-lg border border-slate-300 px-5 py-2.5 font-medium text-slate-700"
            >
              Crear cuenta con {invitation.email}
            </Link>
          </div>
        ) : !sameAccount ? (
          <Alert tone="warning">
            Inició sesión como {user.email}, pero la invitación es para {invitation.email}. Cierre sesión e
            ingrese con esa cuenta para aceptarla.
          </Alert>
        ) : (
          <button
            type="button"
            disabled={accept.isPending}
            onClick={() =>
              accept.mutate(undefined, {
                onSuccess: (answer) => {
                  toast.success(answer.message);
                  navigate(`/cuenta/instituciones/${answer.institutionId}`, { replace: true });
                },
                onError: (error) => showServerError(error, 'No se pudo aceptar la invitación'),
              })
            }
            className="rounded-lg bg-brand-700 px-5 py-2.5 font-semibold text-white hover:bg-brand-800 disabled:opacity-70"
          >
            Aceptar la invitación
          </button>
        )}
      </div>
    </section>
  );
}
