import { Link, Route, Routes, useParams } from 'react-router';
import type { SessionUser } from '@/client/lib/auth/session.ts';
import { Alert } from '@/client/ui/alert.tsx';
import { useDocumentTitle } from '@/client/ui/page-heading.tsx';
import { Spinner } from '@/client/ui/spinner.tsx';
import { INSTITUTION_ROLE_LABELS } from '@/shared/institutions.ts';
import { shop } from '@/shared/shop.ts';
import { useMyInstitutions } from '../api/institutions.ts';
import { InstitutionDetail } from './institution-detail.tsx';
import { AcceptInvitation } from './institution-invitation.tsx';

function MyInstitutions() {
  const mine = useMyInstitutions();
  if (mine.isPending) return <Spinner />;
  if (mine.error) return <Alert tone="danger">{mine.error.message}</Alert>;
  const { memberships, activeId } = mine.data;
  return (
    <section className="rounded-xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-7">
      <h2 className="text-xl font-semibold text-slate-900">Mis instituciones</h2>
      <p className="mt-1 text-sm text-slate-600">
        Las universidades, hospitales, centros de investigación y empresas para las que usted compra. Elija en
        el encabezado, en «Comprando para», a nombre de quién hace cada compra.
      </p>
      {memberships.length === 0 ? (
        <div className="mt-6">
          <Alert tone="info">
            Aún no pertenece a ninguna institución. Si su institución compra con nosotros, pida a su
            administrador que lo invite; si quiere abrir una cuenta institucional, escríbanos a {shop.email}.
          </Alert>
        </div>
      ) : (
        <ul className="mt-6 grid gap-4 lg:grid-cols-2">
          {memberships.map((m) => (
            <li key={m.institution.id}>
              <Link
                to={`/cuenta/instituciones/${m.institution.id}`}
                className="block rounded-lg p-4 ring-1 ring-slate-200 hover:ring-brand-400"
              >
                <p className="font-semibold text-slate-900">{m.institution.razonSocial}</p>
                <p className="mt-0.5 text-sm text-slate-600">RFC {m.institution.rfc}</p>
                <p className="mt-3 flex flex-wrap gap-2 text-xs font-medium">
                  <span className="rounded-full bg-brand-50 px-2.5 py-1 text-brand-800">
                    {INSTITUTION_ROLE_LABELS[m.role]}
                  </span>
                  {m.institution.id === activeId ? (
                    <span className="rounded-full bg-amber-100 px-2.5 py-1 text-amber-900">
                      Comprando para ella
                    </span>
                  ) : null}
                  {!m.institution.verified ? (
                    <span className="rounded-full bg-slate-100 px-2.5 py-1 text-slate-700">En revisión</span>
                  ) : null}
                </p>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function OneInstitution({ user }: { user: SessionUser }) {
  const { id } = useParams();
  const mine = useMyInstitutions();
  if (mine.isPending) return <Spinner />;
  if (mine.error) return <Alert tone="danger">{mine.error.message}</Alert>;
  const membership = mine.data.memberships.find((m) => String(m.institution.id) === id);
  if (!membership) return <Alert tone="warning">Institución no encontrada</Alert>;
  return <InstitutionDetail membership={membership} activeId={mine.data.activeId} userId={user.id} />;
}

/** /cuenta/instituciones/* (issue 34), inside the account's settings: the person's institutions and one of them. */
export function InstitutionsArea({ user }: { user: SessionUser }) {
  return (
    <Routes>
      <Route index element={<MyInstitutions />} />
      <Route path=":id" element={<OneInstitution user={user} />} />
    </Routes>
  );
}

/** /cuenta/instituciones/invitacion/:token: open to a visitor too (the page asks them to sign in to accept). */
export function InvitationScreen() {
  const { token = '' } = useParams();
  useDocumentTitle(`Invitación | ${shop.tradeName}`);
  return (
    <div className="mx-auto max-w-6xl px-4 py-8 sm:py-10">
      <AcceptInvitation token={token} />
    </div>
  );
}
