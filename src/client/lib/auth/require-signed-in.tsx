import { type ReactNode, useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { Spinner } from '@/client/ui/spinner.tsx';
import { type SessionUser, useSessionUser } from './session.ts';

/**
 * Sends a visitor away from a signed-in-only screen. By default to the sign-in screen with the
 * current path as `redirect` (checkout: /envio, /orden); `visitorTo` overrides it (/cuenta → /).
 * Returns the user once known, null while pending or when leaving.
 */
export function useRequireSignedIn(visitorTo?: string): SessionUser | null {
  const { user, pending } = useSessionUser();
  const navigate = useNavigate();
  const location = useLocation();
  const target = visitorTo ?? `/ingresar?redirect=${encodeURIComponent(location.pathname + location.search)}`;
  useEffect(() => {
    if (!pending && !user) navigate(target, { replace: true });
  }, [pending, user, navigate, target]);
  return user;
}

/** Renders its children only for a signed-in user; shows a spinner meanwhile. */
export function RequireSignedIn({
  children,
  visitorTo,
}: {
  children: ReactNode | ((user: SessionUser) => ReactNode);
  visitorTo?: string;
}) {
  const user = useRequireSignedIn(visitorTo);
  if (!user) return <Spinner />;
  return <>{typeof children === 'function' ? children(user) : children}</>;
}

/** The opposite guard (sign-in screens): a signed-in user is sent to `to` (spec §6). */
export function useRedirectSignedIn(to: string): { pending: boolean; signedIn: boolean } {
  const { user, pending } = useSessionUser();
  const navigate = useNavigate();
  useEffect(() => {
    if (!pending && user) navigate(to, { replace: true });
  }, [pending, user, navigate, to]);
  return { pending, signedIn: Boolean(user) };
}
